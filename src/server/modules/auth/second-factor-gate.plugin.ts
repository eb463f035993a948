import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import {
  ACTIONS_BEFORE_SECOND_FACTOR,
  SECOND_FACTOR_SETUP_REQUIRED,
} from '../../../contracts/second-factor.js';
import { routedPathOf } from '../../platform/http/api-paths.js';
import type { Role } from '../../platform/tenancy/roles.js';

export interface SecondFactorGateOptions {
  /** MFA_REQUIRED_ROLES. */
  requiredRoles: ReadonlySet<Role>;
}

/** Whether a session may do nothing but set up a second factor. */
export function mustSetUpSecondFactor(
  requiredRoles: ReadonlySet<Role>,
  session: { role: string; secondFactor: string },
): boolean {
  return requiredRoles.has(session.role as Role) && session.secondFactor === 'none';
}

/**
 * An account whose role must have a second factor (MFA_REQUIRED_ROLES) and has none is signed in
 * only to set one up (docs/decisions/0112-second-factor-required-roles.md): every route behind the
 * session gate refuses it with 403, whatever the route (one no route serves included), except those
 * about its own account and sign-in. Right after the session gate, so nothing else runs first.
 */
const secondFactorGate: FastifyPluginAsync<SecondFactorGateOptions> = async (
  app,
  { requiredRoles },
) => {
  if (requiredRoles.size === 0) return;
  const body = JSON.stringify({ error: SECOND_FACTOR_SETUP_REQUIRED });
  app.addHook('onRequest', (request, reply, done) => {
    const session = request.session;
    if (
      session === null ||
      !mustSetUpSecondFactor(requiredRoles, session) ||
      !routedPathOf(request).requiresSession
    ) {
      done();
      return;
    }
    const action = request.is404 ? undefined : request.routeOptions.config.action;
    if (action !== undefined && ACTIONS_BEFORE_SECOND_FACTOR.has(action)) {
      done();
      return;
    }
    reply.code(403).header('content-type', 'application/json; charset=utf-8').send(body);
  });
};

export default fp(secondFactorGate, { name: 'second-factor-gate', dependencies: ['auth-gate'] });
