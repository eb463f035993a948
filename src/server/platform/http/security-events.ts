import type { FastifyBaseLogger } from 'fastify';

export type SecurityEvent =
  | 'auth.signin_succeeded'
  | 'auth.signin_failed'
  | 'auth.signed_out'
  | 'auth.password_reset_requested'
  | 'auth.password_reset_succeeded'
  | 'auth.password_reset_failed'
  | 'auth.invitation_accepted'
  | 'auth.invitation_failed'
  | 'auth.password_changed'
  | 'auth.password_change_failed'
  /** A correct password of an account with a second factor: the second step was asked for. */
  | 'auth.signin_second_step'
  | 'auth.second_step_failed'
  | 'auth.second_factor_confirm_failed'
  | 'auth.second_factor_added'
  | 'auth.second_factor_removed'
  | 'auth.passkey_refused'
  | 'access.forbidden'
  | 'access.cross_origin_refused'
  | 'cron.bearer_refused'
  | 'document.integrity_failed'
  /** The guard refused a request to the AI provider (modules/ai/provider-guard.rules.ts): the rules matched. */
  | 'ai.outgoing_refused'
  /** An AI answer cited a source it was not given, and was refused (modules/ai/chat.service.ts). */
  | 'ai.citation_refused'
  | 'rag.bearer_refused'
  /** A wrong or missing bearer on the metrics endpoint (modules/metrics/metrics.routes.ts). */
  | 'metrics.bearer_refused';

/**
 * A structured security event in the request's log (with its request id). Identifies the user
 * by id where known and never by e-mail address.
 */
export function logSecurityEvent(
  log: FastifyBaseLogger,
  event: SecurityEvent,
  details: { userId: string | null; reason?: string },
): void {
  log.info(
    { securityEvent: event, userId: details.userId, reason: details.reason },
    'security event',
  );
}
