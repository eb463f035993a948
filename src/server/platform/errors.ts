import { STEP_UP_REQUIRED } from '../../contracts/second-factor.js';

/**
 * What a service refuses, in the service's own terms (docs/decisions/0056-shared-contracts.md). Services know nothing of
 * HTTP: they throw one of these, and the error handler alone turns each kind into a status code
 * and a body (`http/error-handler.ts`). `publicMessage` is written for the person who asked: it
 * never carries a value they sent, an id of another tenant or anything internal.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'limit_reached'
  | 'unavailable';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  constructor(readonly publicMessage: string) {
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
 * password, a duplicate in a list): answered with the same 400 body as a schema failure.
 */
export class ValidationError extends DomainError {
  override name = 'ValidationError';
  readonly kind = 'invalid';
  constructor(readonly issues: ValidationIssue[]) {
    super('Validation failed');
  }
}

/**
 * The policy table does not allow the actor this (`tenancy/authorize.ts`), or a rule beside it
 * refuses the record's kind, saying why; logged as a security event.
 */
export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError';
  readonly kind = 'forbidden';
  constructor(message = 'Forbidden') {
    super(message);
  }
}

/**
 * The action needs a second factor confirmed within the last 5 minutes and the session's is older
 * (docs/decisions/0110-second-factor.md): the person confirms it and tries again.
 */
export class StepUpRequiredError extends DomainError {
  override name = 'StepUpRequiredError';
  readonly kind = 'forbidden';
  constructor() {
    super(STEP_UP_REQUIRED);
  }
}

/**
 * No such record, and also the answer for a record of another tenant or outside the actor's
 * employer, so nobody learns whether it exists (docs/api.md, "Who may do what").
 */
export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
  readonly kind = 'not_found';
  constructor() {
    super('Not found');
  }
}

/** The request clashes with the state of a record: taken, already done, changed meanwhile. */
export class ConflictError extends DomainError {
  override name = 'ConflictError';
  readonly kind = 'conflict';
}

/** More than the service takes (an upload past its limit). */
export class TooLargeError extends DomainError {
  override name = 'TooLargeError';
  readonly kind = 'too_large';
  constructor() {
    super('Payload too large');
  }
}

/** A quota the tenant has used up (the AI provider's monthly limits): try again when it renews. */
export class LimitReachedError extends DomainError {
  override name = 'LimitReachedError';
  readonly kind = 'limit_reached';
}

/**
 * Something the service depends on outside itself (the AI provider) did not answer in time or
 * at all. The message is generic: what failed, and how, goes to the log only.
 */
export class UnavailableError extends DomainError {
  override name = 'UnavailableError';
  readonly kind = 'unavailable';
}
