import { pageOf } from '../pages.js';
import { get, patch, post } from '../route-kit.js';
import {
  statementAssumptionsChange,
  statementAssumptionsInput,
  statementAssumptionsQuery,
  statementAssumptionsView,
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
  },
  audit: {
    records: {
      statement_assumptions: { noun: 'a projection assumption set', label: 'Assumption set' },
    },
    actions: {
      'statement_assumptions.created': 'Added a projection assumption set',
      'statement_assumptions.updated': 'Corrected a projection assumption set',
      'statement_assumptions.listed': 'Listed the projection assumption sets',
      'statement_assumptions.viewed': 'Viewed a projection assumption set',
    },
  },
});
