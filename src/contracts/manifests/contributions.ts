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
import {
  lateRemittanceQuery,
  lateRemittanceReport,
  remittanceCalendar,
  remittanceQuery,
  remittanceReceiptInput,
  remittanceReceiptQuery,
  remittanceReceiptView,
  remittanceReceiptVoid,
} from '../remittances.js';
import { EXAMPLE_IDS, get, nothing, post, put, route } from '../route-kit.js';
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
    /**
     * What an employer remitted for each month's deductions, against what payroll says was
     * deducted (docs/decisions/0136-contribution-remittance.md).
     */
    remittanceReceipts: {
      create: post('/api/employers/:id/remittance-receipts', {
        body: remittanceReceiptInput,
        answer: remittanceReceiptView,
        example: {
          body: {
            month: '2026-01',
            receivedOn: '2026-02-18',
            amountCents: 152_400,
            reference: 'EFT 0218 Corrib Foods payroll January',
          },
        },
      }),
      listOfEmployer: get('/api/employers/:id/remittance-receipts', {
        query: remittanceReceiptQuery,
        answer: pageOf(remittanceReceiptView),
      }),
      /** A receipt recorded by mistake, removed with the reason: kept, and counted no more. */
      remove: route('DELETE', '/api/remittance-receipts/:id', {
        body: remittanceReceiptVoid,
        answer: nothing,
        example: { body: { reason: 'Recorded twice: the bank statement shows one payment' } },
      }),
    },
    remittances: {
      ofEmployer: get('/api/employers/:id/remittances', {
        query: remittanceQuery,
        answer: remittanceCalendar,
        example: { query: { from: '2026-01', to: '2026-12' } },
      }),
      /** The trustees' late-payment report of a scheme, for a calendar year. */
      lateOfScheme: get('/api/schemes/:id/late-remittances', {
        query: lateRemittanceQuery,
        answer: lateRemittanceReport,
        example: { query: { year: '2026' } },
      }),
    },
  },
  audit: {
    records: {
      contribution: { noun: 'a contribution', label: 'Contribution' },
      remittance_receipt: { noun: 'a remittance receipt', label: 'Remittance receipt' },
      remittance: { noun: 'an employer’s remittance calendar', label: 'Remittance calendar' },
      late_remittance: { noun: 'a late-payment report', label: 'Late-payment report' },
    },
    actions: {
      'contribution.created': 'Recorded a contribution',
      'contribution.adjusted': 'Corrected a contribution',
      'contribution.listed': 'Listed contributions',
      'remittance_receipt.recorded': 'Recorded a payment received from an employer',
      'remittance_receipt.voided': 'Removed a payment recorded by mistake',
      'remittance_receipt.listed': 'Listed the payments received from an employer',
      'remittance.viewed': 'Viewed an employer’s remittance calendar',
      'late_remittance.viewed': 'Viewed a scheme’s late-payment report',
    },
  },
});
