import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export { type EmployerInput, employerInput } from '../../../contracts/organisation.js';

export const employerView = z.object({
  id: z.string(),
  brokerId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EmployerView = z.infer<typeof employerView>;

export const employerParams = z.object({ id: idText });
