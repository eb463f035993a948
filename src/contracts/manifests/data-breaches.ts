import {
  dataBreachClose,
  dataBreachInput,
  dataBreachQuery,
  dataBreachUpdate,
  dataBreachView,
  dpcNotificationInput,
  membersToldInput,
} from '../data-breaches.js';
import { pageOf } from '../pages.js';
import { get, patch, post } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/**
 * The personal-data breach register of a firm (docs/decisions/0138-personal-data-breaches.md):
 * every step answers the breach as it now stands, with its clock.
 */
export const dataBreachesManifest = defineManifest({
  name: 'data-breaches',
  routes: {
    dataBreaches: {
      create: post('/api/data-breaches', {
        body: dataBreachInput,
        answer: dataBreachView,
        example: {
          body: {
            title: 'Statements posted to the wrong members',
            description:
              'A batch of annual benefit statements was put in envelopes addressed to other members of the same scheme.',
            becameAwareAt: '2026-01-09T10:15:00Z',
            occurredAt: '2026-01-08T16:00:00Z',
            categoriesOfData: ['identity', 'financial'],
            approximateMembers: 14,
            riskToPeople: 'risk',
          },
        },
      }),
      list: get('/api/data-breaches', { query: dataBreachQuery, answer: pageOf(dataBreachView) }),
      get: get('/api/data-breaches/:id', { answer: dataBreachView }),
      update: patch('/api/data-breaches/:id', {
        body: dataBreachUpdate,
        answer: dataBreachView,
        example: { body: { approximateMembers: 16, riskToPeople: 'risk' } },
      }),
      notifyDpc: post('/api/data-breaches/:id/notify-dpc', {
        body: dpcNotificationInput,
        answer: dataBreachView,
        example: { body: { notifiedAt: '2026-01-11T09:00:00Z', reference: 'BN-2026-0142' } },
      }),
      membersTold: post('/api/data-breaches/:id/members-told', {
        body: membersToldInput,
        answer: dataBreachView,
        example: {
          body: {
            toldAt: '2026-01-12T12:00:00Z',
            how: 'A letter to each member affected, with a named contact at the firm',
          },
        },
      }),
      close: post('/api/data-breaches/:id/close', {
        body: dataBreachClose,
        answer: dataBreachView,
        example: {
          body: {
            outcome:
              'The statements were returned unopened; the envelope merge was corrected and checked',
          },
        },
      }),
    },
  },
  audit: {
    records: {
      data_breach: { noun: 'a personal-data breach', label: 'Data breach' },
    },
    actions: {
      'data_breach.recorded': 'Recorded a personal-data breach',
      'data_breach.updated': 'Changed the assessment of a personal-data breach',
      'data_breach.dpc_notified': 'Recorded the notification of a breach to the Commission',
      'data_breach.people_told': 'Recorded that the people affected by a breach were told',
      'data_breach.closed': 'Closed a personal-data breach',
      'data_breach.listed': 'Listed the personal-data breaches',
      'data_breach.viewed': 'Viewed a personal-data breach',
    },
  },
});
