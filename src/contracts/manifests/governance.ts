import type { z } from 'zod';
import {
  calendarEntryView,
  calendarQuery,
  complianceView,
  conflictChange,
  conflictInput,
  conflictView,
  filingChange,
  filingInput,
  filingView,
  governanceDashboardView,
  historyEntryView,
  keyFunctionHolderChange,
  keyFunctionHolderInput,
  keyFunctionHolderView,
  oraReportChange,
  oraReportInput,
  oraReportView,
  policyApproval,
  policyChange,
  policyInput,
  policyView,
  registerListQuery,
  significantChangeInput,
  significantChangeView,
  trusteeChange,
  trusteeInput,
  trusteeTrainingInput,
  trusteeTrainingView,
  trusteeView,
} from '../governance.js';
import { pageOf, pageQuery } from '../pages.js';
import { get, patch, post, type RoutePath, remove } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The routes of one register of governance entries (docs/decisions/0059-governance-rules.md). */
function register<
  const Scheme extends RoutePath,
  const Entry extends RoutePath,
  const History extends RoutePath,
  const Q extends z.ZodType,
  const V extends z.ZodType,
  const I extends z.ZodType,
  const C extends z.ZodType,
>(
  paths: { ofScheme: Scheme; entry: Entry; history: History },
  schemas: { query: Q; view: V; input: I; change: C },
  examples: { create: z.input<I>; update: z.input<C> },
) {
  return {
    listOfScheme: get(paths.ofScheme, { query: schemas.query, answer: pageOf(schemas.view) }),
    create: post(paths.ofScheme, {
      body: schemas.input,
      answer: schemas.view,
      example: { body: examples.create },
    }),
    get: get(paths.entry, { answer: schemas.view }),
    update: patch(paths.entry, {
      body: schemas.change,
      answer: schemas.view,
      example: { body: examples.update },
    }),
    remove: remove(paths.entry),
    history: get(paths.history, { query: pageQuery, answer: pageOf(historyEntryView) }),
  };
}

/** The governance module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const governanceManifest = defineManifest({
  name: 'governance',
  routes: {
    trustees: register(
      {
        ofScheme: '/api/schemes/:id/trustees',
        entry: '/api/trustees/:id',
        history: '/api/trustees/:id/history',
      },
      { query: registerListQuery, view: trusteeView, input: trusteeInput, change: trusteeChange },
      {
        // An individual, so that the training example (no director named) is of this trustee.
        create: {
          name: 'Siobhán Kelly',
          kind: 'individual',
          appointedOn: '2024-05-01',
          fitnessAndProbity: 'confirmed',
          email: 'siobhan.kelly@example.ie',
          phone: '+353 87 123 4567',
        },
        update: { appointedOn: '2020-02-01' },
      },
    ),
    keyFunctionHolders: register(
      {
        ofScheme: '/api/schemes/:id/key-function-holders',
        entry: '/api/key-function-holders/:id',
        history: '/api/key-function-holders/:id/history',
      },
      {
        query: registerListQuery,
        view: keyFunctionHolderView,
        input: keyFunctionHolderInput,
        change: keyFunctionHolderChange,
      },
      {
        create: {
          function: 'risk_management',
          holderName: 'Aoife Murphy',
          holderEmail: 'aoife.murphy@example.ie',
          appointedOn: '2024-05-01',
          alsoServesEmployer: true,
          conflictsProtocol: 'Reports to the chair.\nReviewed yearly.',
          notifiedOn: '2024-05-20',
        },
        update: { fitnessAndProbity: 'confirmed' },
      },
    ),
    policies: {
      ...register(
        {
          ofScheme: '/api/schemes/:id/policies',
          entry: '/api/policies/:id',
          history: '/api/policies/:id/history',
        },
        { query: registerListQuery, view: policyView, input: policyInput, change: policyChange },
        {
          create: { kind: 'remuneration', title: 'Remuneration policy', version: '1.0' },
          update: { version: '1.1' },
        },
      ),
      approve: post('/api/policies/:id/approve', {
        body: policyApproval,
        answer: policyView,
        example: {
          body: {
            approvedOn: '2025-01-10',
            approvalReference: 'Board meeting 10 January 2025, minute 3.1',
          },
        },
      }),
      significantChange: post('/api/policies/:id/significant-change', {
        body: significantChangeInput,
        answer: significantChangeView,
        example: {
          body: { occurredOn: '2025-02-03', description: 'A new investment manager' },
        },
      }),
    },
    significantChanges: {
      listOfScheme: get('/api/schemes/:id/significant-changes', {
        query: pageQuery,
        answer: pageOf(significantChangeView),
      }),
      /** A change in the scheme's risk profile, which brings its next own-risk assessment forward. */
      riskProfile: post('/api/schemes/:id/risk-profile-changes', {
        body: significantChangeInput,
        answer: significantChangeView,
        example: { body: { occurredOn: '2025-02-03', description: 'Closed to new entrants' } },
      }),
    },
    oraReports: register(
      {
        ofScheme: '/api/schemes/:id/ora-reports',
        entry: '/api/ora-reports/:id',
        history: '/api/ora-reports/:id/history',
      },
      { query: pageQuery, view: oraReportView, input: oraReportInput, change: oraReportChange },
      {
        create: {
          performedOn: '2025-03-01',
          trigger: 'scheduled',
          summary: 'Funding and ICT risks\nReviewed by the board',
        },
        update: { summary: 'Reviewed by the board on 3 March' },
      },
    ),
    /** Trustee training (scheme-year-rules.ts): a record of what was completed, never edited. */
    trusteeTraining: {
      listOfTrustee: get('/api/trustees/:id/training', {
        query: pageQuery,
        answer: pageOf(trusteeTrainingView),
      }),
      create: post('/api/trustees/:id/training', {
        body: trusteeTrainingInput,
        answer: trusteeTrainingView,
        example: { body: { completedOn: '2025-06-12', topic: 'Trustee Handbook, chapters 1–4' } },
      }),
    },
    /** The scheme year's filings (scheme-year-rules.ts). */
    filings: {
      listOfScheme: get('/api/schemes/:id/filings', {
        query: pageQuery,
        answer: pageOf(filingView),
      }),
      create: post('/api/schemes/:id/filings', {
        body: filingInput,
        answer: filingView,
        example: {
          body: {
            kind: 'annual_report',
            periodEnd: '2024-12-31',
            completedOn: '2025-09-15',
            audited: true,
          },
        },
      }),
      get: get('/api/filings/:id', { answer: filingView }),
      update: patch('/api/filings/:id', {
        body: filingChange,
        answer: filingView,
        example: { body: { completedOn: '2025-09-20' } },
      }),
    },
    /**
     * The register of conflicts of interest (guidance: the Pensions Authority's Code of Practice
     * for trustees): never deleted, an entry is closed.
     */
    conflicts: {
      listOfScheme: get('/api/schemes/:id/conflicts', {
        query: pageQuery,
        answer: pageOf(conflictView),
      }),
      create: post('/api/schemes/:id/conflicts', {
        body: conflictInput,
        answer: conflictView,
        example: {
          body: {
            personName: 'Brendan Walsh',
            interest: 'Director of the firm that distributes the scheme’s default fund',
            declaredOn: '2025-03-04',
          },
        },
      }),
      get: get('/api/conflicts/:id', { answer: conflictView }),
      update: patch('/api/conflicts/:id', {
        body: conflictChange,
        answer: conflictView,
        example: {
          body: { management: 'Abstains from votes on the fund range', closedOn: '2025-09-30' },
        },
      }),
    },
    compliance: {
      ofScheme: get('/api/schemes/:id/compliance', { answer: complianceView }),
      calendar: get('/api/compliance/calendar', {
        query: calendarQuery,
        answer: pageOf(calendarEntryView),
        example: { query: { from: '2020-01-01', to: '2021-12-31' } },
      }),
      dashboard: get('/api/compliance/dashboard', { answer: governanceDashboardView }),
    },
  },
  audit: {
    records: {
      trustee: { noun: 'a trustee', label: 'Trustee' },
      key_function_holder: { noun: 'a key function holder', label: 'Key function holder' },
      written_policy: { noun: 'a written policy', label: 'Written policy' },
      ora_report: { noun: 'an own-risk assessment', label: 'Own-risk assessment' },
      significant_change: { noun: 'a significant change', label: 'Significant change' },
      trustee_training: { noun: 'a trustee’s training', label: 'Trustee training' },
      filing: { noun: 'a filing of the scheme year', label: 'Filing' },
      conflict: { noun: 'a conflict of interest', label: 'Conflict of interest' },
      compliance: { noun: 'a scheme’s compliance', label: 'Compliance' },
    },
    actions: {
      'trustee.appointed': 'Appointed a trustee',
      'trustee.updated': 'Changed a trustee’s appointment',
      'trustee.deleted': 'Deleted a trustee from the register',
      'trustee.listed': 'Listed trustees',
      'trustee.viewed': 'Viewed a trustee',
      'kfh.appointed': 'Appointed a key function holder',
      'kfh.updated': 'Changed a key function holder’s appointment',
      'kfh.deleted': 'Deleted a key function holder from the register',
      'key_function_holder.listed': 'Listed key function holders',
      'key_function_holder.viewed': 'Viewed a key function holder',
      'policy.drafted': 'Drafted a written policy',
      'policy.updated': 'Changed a draft written policy',
      'policy.approved': 'Recorded the trustees’ approval of a written policy',
      'policy.superseded': 'Replaced a written policy with a newly approved version',
      'policy.deleted': 'Deleted a written policy from the register',
      'written_policy.listed': 'Listed written policies',
      'written_policy.viewed': 'Viewed a written policy',
      'policy.significant_change_recorded':
        'Recorded a significant change affecting a written policy',
      'ora.recorded': 'Recorded an own-risk assessment',
      'ora.updated': 'Changed an own-risk assessment',
      'ora.deleted': 'Deleted an own-risk assessment from the register',
      'ora_report.listed': 'Listed own-risk assessments',
      'ora_report.viewed': 'Viewed an own-risk assessment',
      'significant_change.listed': 'Listed significant changes',
      'risk_profile.change_recorded': 'Recorded a significant change in a scheme’s risk profile',
      'trustee_training.recorded': 'Recorded training a trustee completed',
      'trustee_training.listed': 'Listed a trustee’s training',
      'filing.recorded': 'Recorded a filing of the scheme year',
      'filing.updated': 'Changed a filing of the scheme year',
      'filing.listed': 'Listed a scheme’s filings',
      'filing.viewed': 'Viewed a filing of the scheme year',
      'conflict.recorded': 'Recorded a conflict of interest',
      'conflict.updated': 'Changed how a conflict of interest is managed, or when it was closed',
      'conflict.closed': 'Closed a conflict of interest',
      'conflict.listed': 'Listed a scheme’s conflicts of interest',
      'conflict.viewed': 'Viewed a conflict of interest',
      'compliance.viewed': 'Viewed a scheme’s compliance',
    },
  },
});
