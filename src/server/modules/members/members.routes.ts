import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody, noContent } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  memberChange,
  memberInput,
  memberListQuery,
  memberParams,
  memberView,
  revealedPps,
  schemeMembersParams,
} from './members.schemas.js';
import type { MembersService } from './members.service.js';

export const membersRoutes: FastifyPluginAsyncZod<{
  members: MembersService;
}> = async (app, { members }) => {
  const tags = ['members'];
  app.route({
    ...routeOf(apiRoutes.members.create),
    config: { action: 'member.create' },
    schema: {
      summary:
        'Add a member to a scheme. The PPS number is validated (check letter) and stored encrypted.',
      tags,
      params: schemeMembersParams,
      body: memberInput,
      response: { 201: memberView, 400: errorBody, 403: errorBody, 409: errorBody },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await members.create(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.members.listOfScheme),
    config: { action: 'member.list' },
    schema: {
      summary: 'List the members of a scheme within reach, optionally by status or part of a name.',
      tags,
      params: schemeMembersParams,
      querystring: memberListQuery,
      response: { 200: pageOf(memberView), 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) =>
      members.listOfScheme(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.members.get),
    config: { action: 'member.read' },
    schema: {
      summary: 'Read a member within reach. The PPS number is only shown as on file.',
      tags,
      params: memberParams,
      response: { 200: memberView, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => members.get(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.members.update),
    config: { action: 'member.update' },
    schema: {
      summary: 'Correct a member.',
      tags,
      params: memberParams,
      body: memberChange,
      response: {
        200: memberView,
        400: errorBody,
        403: errorBody,
        404: errorBody,
        409: errorBody,
      },
    },
    handler: async (request) => members.update(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.members.remove),
    config: { action: 'member.delete' },
    schema: {
      summary: 'Soft-delete a member: kept for the retention period, hidden from reads.',
      tags,
      params: memberParams,
      response: { 204: noContent, 403: errorBody, 404: errorBody },
    },
    handler: async (request, reply) => {
      await members.remove(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...routeOf(apiRoutes.members.revealPps),
    config: { action: 'member.pps.reveal' },
    schema: {
      summary:
        "Reveal a member's PPS number, saying why. Every reveal is audited (member.pps_decrypted) with its reason's code; the note is kept with the reveal, never in the audit log.",
      tags,
      params: memberParams,
      body: apiRoutes.members.revealPps.body,
      response: { 200: revealedPps, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request, reply) => {
      const revealed = await members.revealPps(actorOf(request), request.params.id, request.body);
      // Neither a browser nor a proxy may keep the number.
      return reply.header('cache-control', 'no-store').send(revealed);
    },
  });
  app.route({
    ...routeOf(apiRoutes.members.ppsReveals),
    config: { action: 'member.pps.reveals.list' },
    schema: {
      summary: "Who revealed a member's PPS number, when and why, newest first (the latest 50).",
      tags,
      params: memberParams,
      response: { 200: apiRoutes.members.ppsReveals.answer, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => members.ppsReveals(actorOf(request), request.params.id),
  });
};
