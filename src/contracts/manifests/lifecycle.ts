import {
  deathInput,
  leaveInput,
  leavingChoiceInput,
  lifecycleView,
  rejoinInput,
  retireInput,
  statusCorrectionInput,
  transferOutInput,
} from '../member-lifecycle.js';
import { get, post } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/**
 * The lifecycle module's routes and audit words (docs/decisions/0135-members-lifecycle.md): every
 * step answers the member's lifecycle as it now stands.
 */
export const lifecycleManifest = defineManifest({
  name: 'lifecycle',
  routes: {
    lifecycle: {
      read: get('/api/members/:id/lifecycle', { answer: lifecycleView }),
      leave: post('/api/members/:id/leave', {
        body: leaveInput,
        answer: lifecycleView,
        example: { body: { leftOn: '2026-01-31' } },
      }),
      leavingChoice: post('/api/members/:id/leaving-choice', {
        body: leavingChoiceInput,
        answer: lifecycleView,
        example: { body: { choice: 'preserved', on: '2026-02-10' } },
      }),
      transferOut: post('/api/members/:id/transfer-out', {
        body: transferOutInput,
        answer: lifecycleView,
        example: {
          body: { transferredOn: '2026-03-01', receivingArrangement: 'Example PRSA' },
        },
      }),
      retire: post('/api/members/:id/retire', {
        body: retireInput,
        answer: lifecycleView,
        example: { body: { retiredOn: '2026-06-30' } },
      }),
      death: post('/api/members/:id/death', {
        body: deathInput,
        answer: lifecycleView,
        example: {
          body: {
            diedOn: '2026-04-02',
            dependants: [{ name: 'Example Dependant', relationship: 'Spouse' }],
          },
        },
      }),
      rejoin: post('/api/members/:id/rejoin', {
        body: rejoinInput,
        answer: lifecycleView,
        example: { body: { rejoinedOn: '2026-09-01' } },
      }),
      correct: post('/api/members/:id/status-corrections', {
        body: statusCorrectionInput,
        answer: lifecycleView,
        example: { body: { reason: 'Recorded against the wrong member' } },
      }),
      /** The leaver's statement of their options, as a PDF. */
      leavingStatement: get('/api/members/:id/leaving-statement.pdf'),
    },
  },
  audit: {
    records: {
      member_status_change: { noun: 'a change of a member’s status', label: 'Member status' },
      member_payout: { noun: 'a payment out of a member’s benefit', label: 'Payout' },
    },
    actions: {
      'member.left': 'Recorded that a member left service',
      'member.leaving_choice_made': 'Recorded what a leaver chose',
      'member.transferred_out': 'Recorded a member’s transfer out',
      'member.retired': 'Recorded a member’s retirement',
      'member.died': 'Recorded a member’s death',
      'member.rejoined': 'Recorded that a member rejoined',
      'member.status_corrected': 'Undid the latest change of a member’s status',
      'member_status_change.viewed': 'Read a member’s lifecycle',
      'member_payout.created':
        'Started paying out a member’s benefit: a refund, a transfer out or a benefit on retirement or death',
    },
  },
});
