import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export { type BrokerInput, brokerInput } from '../../../contracts/organisation.js';

export const brokerView = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BrokerView = z.infer<typeof brokerView>;

export const brokerParams = z.object({ brokerId: idText });
