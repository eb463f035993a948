import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import type { RunsService } from './runs.service.js';
import {
  idParams,
  paperStatementView,
  statementPaperInput,
  statementRunInput,
  statementRunQuery,
  statementRunView,
  statementView,
} from './statements.schemas.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };
const stepErrors = { ...readErrors, 409: errorBody };

/**
 * Statement runs and members' statements (docs/decisions/0141-pension-benefit-statements.md).
 * Thin: each route names its action and hands the request to its service.
 */
export const runsRoutes: FastifyPluginAsyncZod<{ runs: RunsService }> = async (app, { runs }) => {
  const tags = ['statements'];

  app.route({
    ...routeOf(apiRoutes.statementRuns.queue),
    config: { action: 'statement_run.create' },
    schema: {
      summary:
        'Queue a run of the scheme’s Pension Benefit Statements for an information date: every active and deferred member’s data is checked, then each statement is made in the background; answers 202 with the run, whose progress GET reads. One run per scheme and information date unless it failed (409). Audited.',
      tags,
      params: idParams,
      body: statementRunInput,
      response: { 202: statementRunView, ...stepErrors },
    },
    handler: async (request, reply) =>
      reply.code(202).send(await runs.create(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.statementRuns.list),
    config: { action: 'statement_run.list' },
    schema: {
      summary: 'The scheme’s statement runs, the latest first.',
      tags,
      params: idParams,
      querystring: statementRunQuery,
      response: { 200: pageOf(statementRunView), ...readErrors },
    },
    handler: async (request) => runs.list(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.statementRuns.get),
    config: { action: 'statement_run.read' },
    schema: {
      summary:
        'A statement run: its status and progress (`total`, `done`, `failed`) and the members whose data failed its checks, each with what failed.',
      tags,
      params: idParams,
      response: { 200: statementRunView, ...readErrors },
    },
    handler: async (request) => runs.get(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.statementRuns.statements),
    config: { action: 'statement_run.read' },
    schema: {
      summary: 'The first 100 statements of a run, by member: the sample staff review.',
      tags,
      params: idParams,
      response: { 200: z.array(statementView), ...readErrors },
    },
    handler: async (request) => runs.statements(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.statementRuns.approve),
    config: { action: 'statement_run.approve' },
    schema: {
      summary:
        'The trustees’ approval of a run whose statements are ready (409 otherwise). Audited.',
      tags,
      params: idParams,
      response: { 200: statementRunView, ...stepErrors },
    },
    handler: async (request) => runs.approve(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.statementRuns.issue),
    config: { action: 'statement_run.issue' },
    schema: {
      summary:
        'Issue an approved run (409 otherwise): each statement becomes its member’s own member-facing benefit statement document, and the member is e-mailed a notice. Asked again after an interruption, it issues only what was not. Audited.',
      tags,
      params: idParams,
      response: { 200: statementRunView, ...stepErrors },
    },
    handler: async (request) => runs.issue(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.statementRuns.paper),
    config: { action: 'statement_run.read' },
    schema: {
      summary:
        'The printing list: the run’s statements whose members asked for them on paper, by member.',
      tags,
      params: idParams,
      response: { 200: z.array(paperStatementView), ...readErrors },
    },
    handler: async (request) => runs.paper(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.memberStatements.paper),
    config: { action: 'statement.paper' },
    schema: {
      summary:
        'Mark a statement for printing on its member’s request (`paper: true`), or take it off the run’s printing list (`false`). Only a statement made (409 otherwise). Audited.',
      tags,
      params: idParams,
      body: statementPaperInput,
      response: { 200: statementView, ...stepErrors },
    },
    handler: async (request) =>
      runs.markPaper(actorOf(request), request.params.id, request.body.paper),
  });
  app.route({
    ...routeOf(apiRoutes.memberStatements.list),
    config: { action: 'statement.list' },
    schema: {
      summary:
        'A member’s Pension Benefit Statements, the latest first: staff see each one made; a member sees their own once issued.',
      tags,
      params: idParams,
      response: { 200: z.array(statementView), ...readErrors },
    },
    handler: async (request) => runs.ofMember(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.memberStatements.pdf),
    config: { action: 'statement.read' },
    schema: {
      summary:
        'A Pension Benefit Statement as a tagged PDF, as its member sees it: staff preview one made; a member reads their own once issued.',
      tags,
      produces: ['application/pdf'],
      params: idParams,
      response: { 200: z.instanceof(Buffer), 403: errorBody, 404: errorBody },
    },
    handler: async (request, reply) => {
      const { bytes, filename } = await runs.pdf(actorOf(request), request.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${filename}"`)
        .send(bytes);
    },
  });
};
