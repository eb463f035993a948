import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { brokerParams } from '../brokers/index.js';
import { employerParams } from '../employers/index.js';
import {
  brokerUserInput,
  colleagueInput,
  employerUserInput,
  listedAccount,
  meView,
  userChange,
  userListQuery,
  userParams,
  userView,
} from './users.schemas.js';
import type { UsersService } from './users.service.js';

const created = { 201: userView, 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const listed = { 200: pageOf(listedAccount), 400: errorBody, 403: errorBody, 404: errorBody };

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (
  app,
  { users },
) => {
  const tags = ['users'];
  app.route({
    ...routeOf(apiRoutes.brokers.createUser),
    config: { action: 'broker.users.create' },
    schema: {
      summary:
        'Create a BrokerAdmin or BrokerUser account; without a password the user is e-mailed a link to choose one.',
      tags,
      params: brokerParams,
      body: brokerUserInput,
      response: created,
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(
          await users.createBrokerUser(actorOf(request), request.params.brokerId, request.body),
        ),
  });
  app.route({
    ...routeOf(apiRoutes.brokers.listUsers),
    config: { action: 'broker.users.list' },
    schema: {
      summary: "List a broker firm's accounts.",
      tags,
      params: brokerParams,
      querystring: userListQuery,
      response: listed,
    },
    handler: async (request) =>
      users.listBrokerUsers(actorOf(request), request.params.brokerId, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.employers.createUser),
    config: { action: 'employer.users.create' },
    schema: {
      summary:
        'Invite an EmployerAdmin, EmployerUser or Member account for an employer: the person is e-mailed a link (72 hours) to set their password.',
      tags,
      params: employerParams,
      body: employerUserInput,
      response: created,
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await users.createEmployerUser(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.employers.listUsers),
    config: { action: 'employer.users.list' },
    schema: {
      summary: "List an employer's accounts.",
      tags,
      params: employerParams,
      querystring: userListQuery,
      response: listed,
    },
    handler: async (request) =>
      users.listEmployerUsers(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.users.invite),
    config: { action: 'user.colleague.invite' },
    schema: {
      summary:
        'Invite a BrokerUser into your own firm: the person is e-mailed a link (72 hours) to set their password.',
      tags,
      body: colleagueInput,
      response: created,
    },
    handler: async (request, reply) =>
      reply.code(201).send(await users.inviteColleague(actorOf(request), request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.users.resendInvitation),
    config: { action: 'user.invitation.resend' },
    schema: {
      summary: 'Send an invited account a new invitation link, ending the earlier one.',
      tags,
      params: userParams,
      response: { 200: userView, 403: errorBody, 404: errorBody, 409: errorBody },
    },
    handler: async (request) => users.resendInvitation(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.users.list),
    config: { action: 'user.list' },
    schema: {
      summary:
        'List the accounts within reach: the own tenant’s, or every tenant’s for the platform.',
      tags,
      querystring: userListQuery,
      response: listed,
    },
    handler: async (request) => users.list(actorOf(request), request.query),
  });
  app.route({
    ...routeOf(apiRoutes.users.get),
    config: { action: 'user.read' },
    schema: {
      summary: 'Read an account.',
      tags,
      params: userParams,
      response: { 200: userView, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => users.get(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.users.update),
    config: { action: 'user.update' },
    schema: {
      summary: 'Rename, deactivate (ending its sessions) or reactivate an account.',
      tags,
      params: userParams,
      body: userChange,
      response: { 200: userView, 400: errorBody, 403: errorBody, 404: errorBody },
    },
    handler: async (request) => users.update(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.users.me),
    config: { action: 'me.read' },
    schema: {
      summary: "The signed-in account, with its broker firm's and employer's names.",
      tags,
      response: { 200: meView },
    },
    handler: async (request) => users.me(actorOf(request)),
  });
};
