import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody, noContent } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { zodResponseSerializerInPieces } from '../../platform/http/zod-serializer.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import type { AppointmentsService } from './appointments.service.js';
import type { ComplianceService } from './compliance.service.js';
import {
  calendarEntryView,
  calendarQuery,
  complianceView,
  governanceDashboardView,
  historyEntryView,
  idParams,
  keyFunctionHolderChange,
  keyFunctionHolderInput,
  keyFunctionHolderView,
  oraReportChange,
  oraReportInput,
  oraReportView,
  pageQuery,
  policyApproval,
  policyChange,
  policyInput,
  policyView,
  registerListQuery,
  significantChangeInput,
  significantChangeView,
  trusteeChange,
  trusteeInput,
  trusteeView,
} from './governance.schemas.js';
import type { PoliciesService } from './policies.service.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };
const writeErrors = { 400: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/**
 * The governance registers, compliance and calendar (docs/decisions/0059-governance-rules.md). Thin: each route names its
 * action of the policy table and hands the request to its service.
 */
export const governanceRoutes: FastifyPluginAsyncZod<{
  appointments: AppointmentsService;
  policies: PoliciesService;
  compliance: ComplianceService;
}> = async (app, { appointments, policies, compliance }) => {
  const tags = ['governance'];

  // Trustees.
  app.route({
    ...routeOf(apiRoutes.trustees.listOfScheme),
    config: { action: 'trustee.list' },
    schema: {
      summary: "A scheme's trustees (those serving today unless includeHistory=true).",
      tags,
      params: idParams,
      querystring: registerListQuery,
      response: { 200: pageOf(trusteeView), ...readErrors },
    },
    handler: async (request) =>
      appointments.listTrustees(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.trustees.create),
    config: { action: 'trustee.create' },
    schema: {
      summary:
        'Appoint a trustee: an individual, or a corporate trustee with its directors; with chair true, the chair of the board moves to them.',
      tags,
      params: idParams,
      body: trusteeInput,
      response: { 201: trusteeView, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await appointments.appointTrustee(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.trustees.get),
    config: { action: 'trustee.read' },
    schema: {
      summary: 'A trustee.',
      tags,
      params: idParams,
      response: { 200: trusteeView, ...readErrors },
    },
    handler: async (request) => appointments.readTrustee(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.trustees.update),
    config: { action: 'trustee.update' },
    schema: {
      summary:
        "Change a trustee's appointment or contact details, or end it with endedOn; chair true names them chair of the board, taking the chair from the trustee who held it.",
      tags,
      params: idParams,
      body: trusteeChange,
      response: { 200: trusteeView, ...writeErrors },
    },
    handler: async (request) =>
      appointments.updateTrustee(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.trustees.remove),
    config: { action: 'trustee.delete' },
    schema: {
      summary: 'Delete a trustee entered in error (kept for the audit, hidden from reads).',
      tags,
      params: idParams,
      response: { 204: noContent, ...readErrors },
    },
    handler: async (request, reply) => {
      await appointments.deleteTrustee(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...routeOf(apiRoutes.trustees.history),
    config: { action: 'trustee.read' },
    schema: {
      summary: "A trustee's history: every recorded change, oldest first.",
      tags,
      params: idParams,
      querystring: pageQuery,
      response: { 200: pageOf(historyEntryView), ...readErrors },
    },
    handler: async (request) =>
      appointments.trusteeHistory(actorOf(request), request.params.id, request.query),
  });

  // Key function holders.
  app.route({
    ...routeOf(apiRoutes.keyFunctionHolders.listOfScheme),
    config: { action: 'kfh.list' },
    schema: {
      summary: "A scheme's key function holders (serving today unless includeHistory=true).",
      tags,
      params: idParams,
      querystring: registerListQuery,
      response: { 200: pageOf(keyFunctionHolderView), ...readErrors },
    },
    handler: async (request) =>
      appointments.listHolders(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.keyFunctionHolders.create),
    config: { action: 'kfh.create' },
    schema: {
      summary:
        'Appoint a key function holder. The internal audit holder may hold no other key function (400 naming the rule).',
      tags,
      params: idParams,
      body: keyFunctionHolderInput,
      response: { 201: keyFunctionHolderView, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await appointments.appointHolder(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.keyFunctionHolders.get),
    config: { action: 'kfh.read' },
    schema: {
      summary: 'A key function holder.',
      tags,
      params: idParams,
      response: { 200: keyFunctionHolderView, ...readErrors },
    },
    handler: async (request) => appointments.readHolder(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.keyFunctionHolders.update),
    config: { action: 'kfh.update' },
    schema: {
      summary:
        'Change an appointment: fitness and probity, the conflicts protocol, or its end (endedOn).',
      tags,
      params: idParams,
      body: keyFunctionHolderChange,
      response: { 200: keyFunctionHolderView, ...writeErrors },
    },
    handler: async (request) =>
      appointments.updateHolder(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.keyFunctionHolders.remove),
    config: { action: 'kfh.delete' },
    schema: {
      summary: 'Delete an appointment entered in error (kept for the audit, hidden from reads).',
      tags,
      params: idParams,
      response: { 204: noContent, ...readErrors },
    },
    handler: async (request, reply) => {
      await appointments.deleteHolder(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...routeOf(apiRoutes.keyFunctionHolders.history),
    config: { action: 'kfh.read' },
    schema: {
      summary: "An appointment's history: every recorded change, oldest first.",
      tags,
      params: idParams,
      querystring: pageQuery,
      response: { 200: pageOf(historyEntryView), ...readErrors },
    },
    handler: async (request) =>
      appointments.holderHistory(actorOf(request), request.params.id, request.query),
  });

  // Written policies.
  app.route({
    ...routeOf(apiRoutes.policies.listOfScheme),
    config: { action: 'policy.list' },
    schema: {
      summary:
        "A scheme's written policies (drafts and those in use; superseded with includeHistory=true).",
      tags,
      params: idParams,
      querystring: registerListQuery,
      response: { 200: pageOf(policyView), ...readErrors },
    },
    handler: async (request) =>
      policies.listPolicies(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.policies.create),
    config: { action: 'policy.create' },
    schema: {
      summary: 'Draft a written policy, or a new version of one; it is in use once approved.',
      tags,
      params: idParams,
      body: policyInput,
      response: { 201: policyView, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await policies.draftPolicy(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.policies.get),
    config: { action: 'policy.read' },
    schema: {
      summary: 'A written policy.',
      tags,
      params: idParams,
      response: { 200: policyView, ...readErrors },
    },
    handler: async (request) => policies.readPolicy(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.policies.update),
    config: { action: 'policy.update' },
    schema: {
      summary:
        "Change a draft's title or version, or the document of a draft or the version in use (otherwise 409).",
      tags,
      params: idParams,
      body: policyChange,
      response: { 200: policyView, ...writeErrors },
    },
    handler: async (request) =>
      policies.updatePolicy(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.policies.approve),
    config: { action: 'policy.approve' },
    schema: {
      summary:
        "Record the trustees' approval of a draft, with the meeting or minute reference of their decision. It replaces the version in use; the next review is due 3 years from when this one was due.",
      tags,
      params: idParams,
      body: policyApproval,
      response: { 200: policyView, ...writeErrors },
    },
    handler: async (request) =>
      policies.approvePolicy(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.policies.significantChange),
    config: { action: 'policy.significant_change' },
    schema: {
      summary:
        "Record a significant change in the policy's area: the law asks for the policy to be adapted, and this service shows its review as due a short grace after the change.",
      tags,
      params: idParams,
      body: significantChangeInput,
      response: { 201: significantChangeView, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await policies.recordPolicyChange(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.policies.remove),
    config: { action: 'policy.delete' },
    schema: {
      summary: 'Delete a policy entered in error (kept for the audit, hidden from reads).',
      tags,
      params: idParams,
      response: { 204: noContent, ...readErrors },
    },
    handler: async (request, reply) => {
      await policies.deletePolicy(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...routeOf(apiRoutes.policies.history),
    config: { action: 'policy.read' },
    schema: {
      summary: "A policy's history: every recorded change, oldest first.",
      tags,
      params: idParams,
      querystring: pageQuery,
      response: { 200: pageOf(historyEntryView), ...readErrors },
    },
    handler: async (request) =>
      policies.policyHistory(actorOf(request), request.params.id, request.query),
  });

  // Significant changes and own-risk assessments.
  app.route({
    ...routeOf(apiRoutes.significantChanges.listOfScheme),
    config: { action: 'significant_change.list' },
    schema: {
      summary: 'The significant changes recorded for a scheme, latest first.',
      tags,
      params: idParams,
      querystring: pageQuery,
      response: { 200: pageOf(significantChangeView), ...readErrors },
    },
    handler: async (request) =>
      policies.listChanges(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.significantChanges.riskProfile),
    config: { action: 'risk_profile.change' },
    schema: {
      summary:
        "Record a significant change in the scheme's risk profile: an own-risk assessment is due without delay.",
      tags,
      params: idParams,
      body: significantChangeInput,
      response: { 201: significantChangeView, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(
          await policies.recordRiskProfileChange(actorOf(request), request.params.id, request.body),
        ),
  });
  app.route({
    ...routeOf(apiRoutes.oraReports.listOfScheme),
    config: { action: 'ora.list' },
    schema: {
      summary: "A scheme's own-risk assessments, latest recorded first.",
      tags,
      params: idParams,
      querystring: pageQuery,
      response: { 200: pageOf(oraReportView), ...readErrors },
    },
    handler: async (request) =>
      policies.listOra(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.oraReports.create),
    config: { action: 'ora.create' },
    schema: {
      summary: 'Record an own-risk assessment; the next is due 3 years from when this one was due.',
      tags,
      params: idParams,
      body: oraReportInput,
      response: { 201: oraReportView, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await policies.recordOra(actorOf(request), request.params.id, request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.oraReports.get),
    config: { action: 'ora.read' },
    schema: {
      summary: 'An own-risk assessment.',
      tags,
      params: idParams,
      response: { 200: oraReportView, ...readErrors },
    },
    handler: async (request) => policies.readOra(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.oraReports.update),
    config: { action: 'ora.update' },
    schema: {
      summary: 'Correct an own-risk assessment; its next due date is worked out again.',
      tags,
      params: idParams,
      body: oraReportChange,
      response: { 200: oraReportView, ...writeErrors },
    },
    handler: async (request) =>
      policies.updateOra(actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...routeOf(apiRoutes.oraReports.remove),
    config: { action: 'ora.delete' },
    schema: {
      summary: 'Delete an assessment entered in error (kept for the audit, hidden from reads).',
      tags,
      params: idParams,
      response: { 204: noContent, ...readErrors },
    },
    handler: async (request, reply) => {
      await policies.deleteOra(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...routeOf(apiRoutes.oraReports.history),
    config: { action: 'ora.read' },
    schema: {
      summary: "An assessment's history: every recorded change, oldest first.",
      tags,
      params: idParams,
      querystring: pageQuery,
      response: { 200: pageOf(historyEntryView), ...readErrors },
    },
    handler: async (request) =>
      policies.oraHistory(actorOf(request), request.params.id, request.query),
  });

  // Compliance.
  app.route({
    ...routeOf(apiRoutes.compliance.ofScheme),
    config: { action: 'compliance.read' },
    schema: {
      summary:
        "A scheme's standing: ok, due_soon, overdue or incomplete, with each obligation's reason and citation.",
      tags,
      params: idParams,
      response: { 200: complianceView, ...readErrors },
    },
    handler: async (request) => compliance.ofScheme(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.compliance.calendar),
    config: { action: 'compliance.calendar' },
    schema: {
      summary:
        'The governance due dates of every scheme within reach between from and to (optionally one employer), soonest first.',
      tags,
      querystring: calendarQuery,
      response: { 200: pageOf(calendarEntryView), 400: errorBody, 403: errorBody },
    },
    handler: async (request) => compliance.calendar(actorOf(request), request.query),
  });
  app.route({
    ...routeOf(apiRoutes.compliance.dashboard),
    config: { action: 'compliance.dashboard' },
    schema: {
      summary:
        'Every scheme within reach by governance standing, with counts and the due dates it reminds of: overdue or due soon.',
      tags,
      response: { 200: governanceDashboardView, 403: errorBody },
    },
    // Its answer runs to megabytes for a broker of a thousand schemes.
    serializerCompiler: zodResponseSerializerInPieces,
    handler: async (request) => compliance.dashboard(actorOf(request)),
  });
};
