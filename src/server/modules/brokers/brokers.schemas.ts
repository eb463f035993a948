import { z } from 'zod';

export const brokerInput = z.object({
  name: z.string().trim().min(1).max(200),
});
export type BrokerInput = z.infer<typeof brokerInput>;

export const brokerView = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BrokerView = z.infer<typeof brokerView>;

export const brokerParams = z.object({ brokerId: z.string().min(1).max(64) });
