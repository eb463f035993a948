import { z } from 'zod';
import { pageOf } from '../pages.js';
import { EXAMPLE_IDS, get, patch, post } from '../route-kit.js';
import {
  paperStatementView,
  statementAssumptionsChange,
  statementAssumptionsInput,
  statementAssumptionsQuery,
  statementAssumptionsView,
  statementPaperInput,
  statementRunInput,
  statementRunQuery,
  statementRunView,
  statementView,
} from '../statements.js';
import { defineManifest } from './manifest.js';

/**
 * Pension Benefit Statements (docs/decisions/0141-pension-benefit-statements.md): the projection
 * assumption sets, the runs that prepare a scheme's statements, and each member's statements.
 */
export const statementsManifest = defineManifest({
  name: 'statements',
  routes: {
    statementAssumptions: {
      create: post('/api/statement-assumptions', {
        body: statementAssumptionsInput,
        answer: statementAssumptionsView,
        example: {
          body: {
            name: 'Pensions Authority guidance',
            effectiveFrom: '2026-01-01',
            source:
              'The Pensions Authority’s guidance on benefit statement projections, updated 10 March 2023',
            bestEstimateReturnPct: 4.75,
            unfavourableReturnPct: 1.5,
            inflationPct: 2.5,
            salaryGrowthPct: 2.5,
            annuityFactor: 25,
          },
        },
      }),
      list: get('/api/statement-assumptions', {
        query: statementAssumptionsQuery,
        answer: pageOf(statementAssumptionsView),
      }),
      get: get('/api/statement-assumptions/:id', { answer: statementAssumptionsView }),
      update: patch('/api/statement-assumptions/:id', {
        body: statementAssumptionsChange,
        answer: statementAssumptionsView,
        example: { body: { inflationPct: 2.25 } },
      }),
    },
    statementRuns: {
      queue: post('/api/schemes/:id/statement-runs', {
        body: statementRunInput,
        answer: statementRunView,
        example: {
          body: {
            informationDate: '2025-12-31',
            membersBy: '2026-06-30',
            assumptionsId: EXAMPLE_IDS.assumptions,
          },
        },
      }),
      list: get('/api/schemes/:id/statement-runs', {
        query: statementRunQuery,
        answer: pageOf(statementRunView),
      }),
      get: get('/api/statement-runs/:id', { answer: statementRunView }),
      statements: get('/api/statement-runs/:id/statements', { answer: z.array(statementView) }),
      /** The run's statements its members asked to have on paper: the printing list. */
      paper: get('/api/statement-runs/:id/paper', { answer: z.array(paperStatementView) }),
      approve: post('/api/statement-runs/:id/approve', { answer: statementRunView }),
      issue: post('/api/statement-runs/:id/issue', { answer: statementRunView }),
    },
    memberStatements: {
      list: get('/api/members/:id/statements', { answer: z.array(statementView) }),
      /** A statement as its member sees it, as a PDF. */
      pdf: get('/api/statements/:id/pdf'),
      /** Marks a statement for printing on its member's request, or takes it off the list. */
      paper: post('/api/statements/:id/paper', {
        body: statementPaperInput,
        answer: statementView,
        example: { body: { paper: true } },
      }),
    },
  },
  audit: {
    records: {
      statement_assumptions: { noun: 'a projection assumption set', label: 'Assumption set' },
      statement_run: { noun: 'a statement run', label: 'Statement run' },
      statement: { noun: 'a Pension Benefit Statement', label: 'Benefit statement' },
    },
    actions: {
      'statement_assumptions.created': 'Added a projection assumption set',
      'statement_assumptions.updated': 'Corrected a projection assumption set',
      'statement_assumptions.listed': 'Listed the projection assumption sets',
      'statement_run.created': 'Started a statement run',
      'statement_run.checked': 'Checked the members’ data of a statement run',
      'statement_run.ready': 'Made the statements of a run, ready for the trustees',
      'statement_run.none_made':
        'Finished a statement run that made no statement, so nothing for the trustees to approve',
      'statement_run.approved': 'Recorded the trustees’ approval of a statement run',
      'statement_run.issued': 'Issued the statements of a run to the members',
      'statement_run.listed': 'Listed a scheme’s statement runs',
      'statement_run.viewed': 'Viewed a statement run or a member’s statements',
      'statement.paper_requested': 'Marked a statement for printing, as its member asked',
      'statement.paper_withdrawn': 'Took a statement off the printing list',
    },
  },
});
