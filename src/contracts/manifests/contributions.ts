import {
  adjustmentInput,
  contributionInput,
  contributionView,
  payrollInput,
  payrollSaved,
  payrollView,
  periodTotals,
} from '../contributions.js';
import { pageOf } from '../pages.js';
import { EXAMPLE_IDS, get, post, put } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The contributions module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const contributionsManifest = defineManifest({
  name: 'contributions',
  routes: {
    contributions: {
      listOfMember: get('/api/members/:id/contributions', { answer: pageOf(contributionView) }),
      create: post('/api/members/:id/contributions', {
        body: contributionInput,
        answer: contributionView,
        example: { body: { period: '2026-02', kind: 'employee', amountCents: 12_345 } },
      }),
      adjust: post('/api/contributions/:id/adjustments', {
        body: adjustmentInput,
        answer: contributionView,
        example: { body: { deltaCents: 1, reason: 'Rounding in the payroll file' } },
      }),
    },
    /** A scheme's pay periods as a grid (docs/decisions/0048-contributions-as-a-payroll-grid.md). */
    payroll: {
      get: get('/api/schemes/:id/payroll/:period', { answer: payrollView }),
      save: put('/api/schemes/:id/payroll/:period', {
        body: payrollInput,
        answer: payrollSaved,
        example: {
          body: {
            rows: [{ memberId: EXAMPLE_IDS.member, employeeCents: 20_000, employerCents: 30_000 }],
            reason: 'Payroll run corrected',
          },
        },
      }),
      periods: get('/api/schemes/:id/contribution-periods', { answer: periodTotals }),
    },
  },
  audit: {
    records: {
      contribution: { noun: 'a contribution', label: 'Contribution' },
    },
    actions: {
      'contribution.created': 'Recorded a contribution',
      'contribution.adjusted': 'Corrected a contribution',
      'contribution.listed': 'Listed contributions',
    },
  },
});
