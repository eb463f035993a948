import { z } from 'zod';
import { idText, text } from '../../http/text.js';

export const employerInput = z.object({
  name: text({ max: 200 }).min(1),
});
export type EmployerInput = z.infer<typeof employerInput>;

export const employerView = z.object({
  id: z.string(),
  brokerId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EmployerView = z.infer<typeof employerView>;

export const employerParams = z.object({ id: idText });
