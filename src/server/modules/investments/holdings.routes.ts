import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import type { HoldingsService } from './holdings.service.js';
import {
  fundAssetsView,
  holdingsView,
  idParams,
  memberTransactionQuery,
  memberTransactionView,
  onDayQuery,
  valueHistoryQuery,
  valueHistoryView,
} from './investments.schemas.js';

/** A DB scheme's members hold no units: asking what they hold is answered 409. */
const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/**
 * What members hold and every movement of their units, and the trustees' view of a scheme's funds
 * (docs/decisions/0127-dc-money.md).
 */
export const holdingsRoutes: FastifyPluginAsyncZod<{ holdings: HoldingsService }> = async (
  app,
  { holdings },
) => {
  const tags = ['investments'];
  app.route({
    ...routeOf(apiRoutes.holdings.ofMember),
    config: { action: 'holdings.read' },
    schema: {
      summary:
        'A member’s units in each fund on a day (today when not given) at the latest price on or before it, with the money waiting to be invested and switching.',
      tags,
      params: idParams,
      querystring: onDayQuery,
      response: { 200: holdingsView, ...readErrors },
    },
    handler: async (request) =>
      holdings.ofMember(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.holdings.valueHistory),
    config: { action: 'holdings.read' },
    schema: {
      summary:
        'What a member’s pension was worth at each month end from a day (two years back when not given) and today, beside the money paid in by then.',
      tags,
      params: idParams,
      querystring: valueHistoryQuery,
      response: { 200: valueHistoryView, ...readErrors },
    },
    handler: async (request) =>
      holdings.valueHistory(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.holdings.transactions),
    config: { action: 'member_transaction.list' },
    schema: {
      summary: 'Every movement of a member’s units, newest first; voided ones left out.',
      tags,
      params: idParams,
      querystring: memberTransactionQuery,
      response: {
        200: pageOf(memberTransactionView),
        400: errorBody,
        403: errorBody,
        404: errorBody,
      },
    },
    handler: async (request) =>
      holdings.transactionsOfMember(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.holdings.fundAssets),
    config: { action: 'fund_assets.read' },
    schema: {
      summary:
        'The units all members of a scheme hold in each fund on a day, their value, and the money waiting to be invested.',
      tags,
      params: idParams,
      querystring: onDayQuery,
      response: { 200: fundAssetsView, ...readErrors },
    },
    handler: async (request) =>
      holdings.fundAssets(actorOf(request), request.params.id, request.query),
  });
};
