import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { MAX_PRICE_FILE_BYTES } from '../../../contracts/fund-price-file.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  fundPriceFileRejection,
  fundPriceList,
  fundPriceQuery,
  fundPricesInput,
  fundPricesRecorded,
  idParams,
  priceFileBody,
} from './investments.schemas.js';
import type { PricesService } from './prices.service.js';

/**
 * A fund's unit prices (docs/decisions/0127-dc-money.md): recorded as JSON for one fund or as a
 * CSV file for a scheme's funds, and read back a year at most at a time.
 */
export const pricesRoutes: FastifyPluginAsyncZod<{ prices: PricesService }> = async (
  app,
  { prices },
) => {
  const tags = ['investments'];
  app.route({
    ...routeOf(apiRoutes.fundPrices.record),
    config: { action: 'fund_price.record' },
    schema: {
      summary:
        'Record a fund’s unit prices, one a day; a different price for a day that has one corrects it, and replays what it was used in.',
      tags,
      params: idParams,
      body: fundPricesInput,
      response: { 200: fundPricesRecorded, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => prices.record(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.fundPrices.list),
    config: { action: 'fund_price.list' },
    schema: {
      summary: 'A fund’s unit prices in force between two days (the last year when not given).',
      tags,
      params: idParams,
      querystring: fundPriceQuery,
      response: { 200: fundPriceList, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => prices.list(actorOf(request), request.params.id, request.query),
  });

  // Its own scope: this route reads CSV only, the others JSON.
  const importRoute: FastifyPluginAsyncZod = async (upload) => {
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser(
      'text/csv',
      { parseAs: 'buffer', bodyLimit: MAX_PRICE_FILE_BYTES },
      (_request, body, done) => done(null, body),
    );
    upload.route({
      ...routeOf(apiRoutes.fundPrices.import),
      config: { action: 'fund_price.import' },
      bodyLimit: MAX_PRICE_FILE_BYTES,
      schema: {
        summary:
          'Import a CSV of the scheme’s fund prices (Fund, Date, Price; docs/imports.md): all rows or none; a 400 lists every bad row by line.',
        tags,
        consumes: ['text/csv'],
        params: idParams,
        body: priceFileBody,
        response: {
          200: fundPricesRecorded,
          400: fundPriceFileRejection,
          403: errorBody,
          404: errorBody,
          413: errorBody,
          415: errorBody,
        },
      },
      handler: async (request, reply) => {
        const outcome = await prices.importFile(
          actorOf(request),
          request.params.id,
          request.body as Buffer,
        );
        if (outcome.status === 'recorded') return outcome.recorded;
        return reply.code(400).send({
          error: 'Validation failed',
          issueCount: outcome.issues.length,
          issues: outcome.issues,
        });
      },
    });
  };
  await app.register(importRoute);
};
