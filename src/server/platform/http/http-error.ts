import { z } from 'zod';

/** Every error body (docs/api.md, "Errors"), for route response schemas and the OpenAPI text. */
export const errorBody = z.object({
  error: z.string(),
  issues: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })).optional(),
});

/** A 204 answer: no body at all. */
export const noContent = z.null().describe('No content');
