import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  ictClassificationInput,
  ictIncidentInput,
  ictIncidentQuery,
  ictIncidentUpdate,
  ictIncidentView,
  ictReportInput,
  ictReportTemplate,
  idParams,
  reportKindParams,
} from './ict-incidents.schemas.js';
import type { IctIncidentsService } from './ict-incidents.service.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };
const stepErrors = { ...readErrors, 409: errorBody };

/**
 * The firm's register of ICT incidents (docs/decisions/0139-dora-ict-incidents.md). Thin: each
 * route names its action and hands the request to its service.
 */
export const ictIncidentsRoutes: FastifyPluginAsyncZod<{
  ictIncidents: IctIncidentsService;
}> = async (app, { ictIncidents }) => {
  const tags = ['dora'];

  app.route({
    ...routeOf(apiRoutes.ictIncidents.create),
    config: { action: 'ict_incident.create' },
    schema: {
      summary:
        'Record an ICT incident: when it was detected and when the firm became aware of it, what happened, the services and schemes it affected, and an earlier incident it recurs. SuperAdmin records an incident of the platform itself, naming the firms (brokerIds) or schemes it reached: each such firm gets it, pre-filled, in its own register. Audited.',
      tags,
      body: ictIncidentInput,
      response: { 201: ictIncidentView, ...readErrors },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await ictIncidents.record(actorOf(request), request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.ictIncidents.list),
    config: { action: 'ict_incident.list' },
    schema: {
      summary:
        "The firm's ICT incidents, the latest recorded first, each with the deadlines of its reports; for SuperAdmin, the platform's own incidents.",
      tags,
      querystring: ictIncidentQuery,
      response: { 200: pageOf(ictIncidentView), 400: errorBody, 403: errorBody },
    },
    handler: async (request) => ictIncidents.list(actorOf(request), request.query),
  });
  app.route({
    ...routeOf(apiRoutes.ictIncidents.get),
    config: { action: 'ict_incident.read' },
    schema: {
      summary:
        'An ICT incident with its classification, its reports and the deadline of each report still due (RTS (EU) 2025/301 Art. 5).',
      tags,
      params: idParams,
      response: { 200: ictIncidentView, ...readErrors },
    },
    handler: async (request) => ictIncidents.get(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.ictIncidents.update),
    config: { action: 'ict_incident.update' },
    schema: {
      summary:
        'Change what is known of an incident: its description, the services and schemes affected, its root cause, the incident it recurs, and when regular activities were recovered (an updated intermediate report falls due). When the firm became aware of it is not changed. Audited.',
      tags,
      params: idParams,
      body: ictIncidentUpdate,
      response: { 200: ictIncidentView, ...stepErrors },
    },
    handler: async (request) =>
      ictIncidents.update(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.ictIncidents.classify),
    config: { action: 'ict_incident.classify' },
    schema: {
      summary:
        'Classify an incident against the criteria of RTS (EU) 2024/1772: major when critical services are affected and the data-loss threshold, or two other thresholds, are met (Art. 8). A major incident classified not major is reclassified. Audited.',
      tags,
      params: idParams,
      body: ictClassificationInput,
      response: { 200: ictIncidentView, ...stepErrors },
    },
    handler: async (request) =>
      ictIncidents.classify(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.ictIncidents.report),
    config: { action: 'ict_incident.report' },
    schema: {
      summary:
        'Record that a report of a major incident was sent to the Pensions Authority: the initial notification, an intermediate report (again when it is updated), the final report, or the report that it was reclassified as not major, in that order. Audited.',
      tags,
      params: idParams,
      body: ictReportInput,
      response: { 200: ictIncidentView, ...stepErrors },
    },
    handler: async (request) =>
      ictIncidents.report(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.ictIncidents.template),
    config: { action: 'ict_incident.template' },
    schema: {
      summary:
        'A report of the incident pre-filled in the fields of the template of ITS (EU) 2025/302, for the firm to complete and send to the Pensions Authority; what the register does not hold is left empty.',
      tags,
      params: reportKindParams,
      response: { 200: ictReportTemplate, ...readErrors },
    },
    handler: async (request) =>
      ictIncidents.template(actorOf(request), request.params.id, request.params.kind),
  });
};
