import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import {
  deathInput,
  leaveInput,
  leavingChoiceInput,
  lifecycleView,
  rejoinInput,
  retireInput,
  statusCorrectionInput,
  transferOutInput,
} from '../../../contracts/member-lifecycle.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { memberParams } from '../members/index.js';
import type { LifecycleService } from './lifecycle.service.js';

/** A member's lifecycle (docs/decisions/0135-members-lifecycle.md): each step answers it whole. */
export const lifecycleRoutes: FastifyPluginAsyncZod<{ lifecycle: LifecycleService }> = async (
  app,
  { lifecycle },
) => {
  const tags = ['members'];
  const answers = {
    200: lifecycleView,
    400: errorBody,
    403: errorBody,
    404: errorBody,
    409: errorBody,
  };

  app.route({
    ...routeOf(apiRoutes.lifecycle.read),
    config: { action: 'member.lifecycle.read', alsoChecks: ['member.dependants.read'] },
    schema: {
      summary:
        'A member’s status with its day, its history, the qualifying service, a leaver’s options and what was paid out.',
      tags,
      params: memberParams,
      response: { 200: lifecycleView, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => lifecycle.read(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.lifecycle.leave),
    config: { action: 'member.leave' },
    schema: {
      summary:
        'Record that an active member left service: they become deferred, with the options their qualifying service gives them.',
      tags,
      params: memberParams,
      body: leaveInput,
      response: answers,
    },
    handler: async (request) => lifecycle.leave(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.lifecycle.leavingChoice),
    config: { action: 'member.leaving_choice' },
    schema: {
      summary:
        'Record a leaver’s choice among their options: a preserved benefit, or a refund of their own contributions less tax, paid out from the day given.',
      tags,
      params: memberParams,
      body: leavingChoiceInput,
      response: answers,
    },
    handler: async (request) =>
      lifecycle.leavingChoice(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.lifecycle.transferOut),
    config: { action: 'member.transfer_out' },
    schema: {
      summary:
        'Record a deferred member’s transfer out: the value of their funds is paid out from the day given, or a DB scheme’s transfer value as given.',
      tags,
      params: memberParams,
      body: transferOutInput,
      response: answers,
    },
    handler: async (request) =>
      lifecycle.transferOut(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.lifecycle.retire),
    config: { action: 'member.retire' },
    schema: {
      summary:
        'Record a member’s retirement: the value of their funds is paid out as their benefit from the day given.',
      tags,
      params: memberParams,
      body: retireInput,
      response: answers,
    },
    handler: async (request) => lifecycle.retire(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.lifecycle.death),
    config: { action: 'member.death' },
    schema: {
      summary:
        'Record a member’s death and the people to contact: a switch that has sold nothing yet is cancelled, and the value of their funds is paid out as the death benefit.',
      tags,
      params: memberParams,
      body: deathInput,
      response: answers,
    },
    handler: async (request) => lifecycle.death(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.lifecycle.rejoin),
    config: { action: 'member.rejoin' },
    schema: {
      summary: 'Record that a member who left rejoined: active again, their service counted on.',
      tags,
      params: memberParams,
      body: rejoinInput,
      response: answers,
    },
    handler: async (request) => lifecycle.rejoin(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.lifecycle.correct),
    config: { action: 'member.status.correct' },
    schema: {
      summary:
        'Undo the latest change of a member’s status, with the reason; refused once units were sold for it.',
      tags,
      params: memberParams,
      body: statusCorrectionInput,
      response: answers,
    },
    handler: async (request) =>
      lifecycle.correct(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.lifecycle.leavingStatement),
    config: { action: 'member.leaving_statement.read' },
    schema: {
      summary:
        'A leaver’s statement of their options, as a tagged PDF: their qualifying service, what the rules give them and why, and the money at the leaving day; for a member still active, what they could do if they left today.',
      tags,
      produces: ['application/pdf'],
      params: memberParams,
      response: { 200: z.instanceof(Buffer), 403: errorBody, 404: errorBody, 409: errorBody },
    },
    handler: async (request, reply) =>
      reply
        .type('application/pdf')
        .header('content-disposition', 'attachment; filename="leaving-statement.pdf"')
        .send(await lifecycle.leavingStatement(actorOf(request), request.params.id)),
  });
};
