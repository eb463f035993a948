import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { withQuerySignal } from '../db/connection-bounds.js';

const signals = new WeakMap<FastifyRequest, AbortSignal>();

/**
 * Each request's database work runs under the signal of its client going away (docs/decisions/
 * 0085): a response closed before it was finished means nobody will read the answer, and the
 * statement the request has in flight is cancelled on the server (db/postgres.ts) instead of
 * running on for minutes on a connection every tenant shares.
 *
 * The signal is entered in onRequest, so that the hooks after it (the session gate) run under it,
 * and again in preHandler: a body parsed from the request's stream events resumes outside it.
 */
const clientGone: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', (request, reply, done) => {
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    signals.set(request, controller.signal);
    withQuerySignal(controller.signal, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const signal = signals.get(request);
    if (signal) withQuerySignal(signal, done);
    else done();
  });
};

export default fp(clientGone, { name: 'client-gone' });
