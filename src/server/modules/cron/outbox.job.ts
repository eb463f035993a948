import type { MailDelivery } from '../../platform/email/delivery.js';
import { everyMinute, type ScheduledJob } from '../../platform/jobs/scheduled-jobs.js';

/**
 * `outbox`: one delivery run of the mail worker (email/delivery.ts), for deployments whose
 * instances do not stay up between requests to poll. It claims messages exactly as the
 * in-process worker does (SKIP LOCKED and a lease), so the two may run side by side without a
 * message going out twice.
 */
export function outboxJob(delivery: Pick<MailDelivery, 'deliverDue'>): ScheduledJob {
  return {
    name: 'outbox',
    cadence: everyMinute(),
    maxRuntimeMinutes: 5,
    async run() {
      const { sent, retrying, discarded } = await delivery.deliverDue();
      return { sent, retrying, discarded };
    },
  };
}
