import type { Transaction } from '../../platform/db/with-actor.js';
import {
  type SecondFactorChange,
  secondFactorChangedMessage,
} from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import { PASSWORD_CHANGED_NOTICE_VALID_MS } from './password-reset.service.js';
import type { FactorOwner } from './second-factor.data.js';

/**
 * The e-mail that tells an account's holder its second factors changed (set up, removed, reset,
 * a passkey added or removed), queued in the change's own transaction, with the way back in if
 * it was not them (docs/decisions/0110-second-factor.md).
 */
export function factorNotices({
  outbox,
  now,
  publicBaseUrl,
}: {
  outbox: Outbox;
  now: () => Date;
  publicBaseUrl: URL;
}) {
  const forgotPasswordUrl = new URL('/forgot-password', publicBaseUrl).toString();
  return (tx: Transaction, to: FactorOwner & { email: string }, change: SecondFactorChange) =>
    outbox.enqueue(tx, {
      brokerId: to.brokerId,
      userId: to.userId,
      kind: 'second_factor_changed',
      message: secondFactorChangedMessage(to.email, { change, forgotPasswordUrl }),
      discardAfter: new Date(now().getTime() + PASSWORD_CHANGED_NOTICE_VALID_MS),
    });
}
