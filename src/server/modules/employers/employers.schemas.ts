import { z } from 'zod';

export const employerInput = z.object({
  name: z.string().trim().min(1).max(200),
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

export const employerParams = z.object({ id: z.string().min(1).max(64) });
