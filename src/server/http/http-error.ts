import { z } from 'zod';

/** An error whose status and message are meant for the client; throw it from services and routes. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly publicMessage: string,
  ) {
    super(publicMessage);
  }
}

export interface ValidationIssue {
  /** Dotted path into the body, e.g. `password` or `allocations.0.percent`. */
  path: string;
  code: string;
  message: string;
}

/**
 * Input that passed the request schema but breaks a rule only a service can check (a common
 * password, a duplicate): answered with the same 400 body as a schema failure.
 */
export class ValidationError extends Error {
  override name = 'ValidationError';
  constructor(readonly issues: ValidationIssue[]) {
    super('Validation failed');
  }
}

/** Every error body (decisions.md §2), for route response schemas and the OpenAPI description. */
export const errorBody = z.object({
  error: z.string(),
  issues: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })).optional(),
});

/** A 204 answer: no body at all. */
export const noContent = z.null().describe('No content');
