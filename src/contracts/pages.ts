import { z } from 'zod';
import { text } from './text.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/**
 * `?limit=` (at most 100, default 50) and an opaque `cursor` (docs/api.md, "Requests and answers").
 */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: text({ max: 200, trim: false }).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** A page of a list as every list endpoint answers it: `{ items, nextCursor }` (docs/api.md). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
