import { z } from 'zod';
import { idText, text } from '../../http/text.js';

export const brokerInput = z.object({
  name: text({ max: 200 }).min(1),
});
export type BrokerInput = z.infer<typeof brokerInput>;

export const brokerView = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BrokerView = z.infer<typeof brokerView>;

export const brokerParams = z.object({ brokerId: idText });
