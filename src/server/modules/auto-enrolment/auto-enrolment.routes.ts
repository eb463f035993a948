import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { importQuery, importRejection } from '../../../contracts/imports.js';
import { UPLOAD_BODY_DEADLINE_MS } from '../../platform/http/body-deadline.js';
import { errorBody, noContent } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import { csvBody } from '../../platform/uploads/csv-upload.js';
import { answerCsvUpload } from '../../platform/uploads/csv-upload-answer.js';
import {
  assessmentQuery,
  assessmentView,
  costView,
  employerParams,
  overviewView,
  payrollUploadListQuery,
  payrollUploadPage,
  payrollUploadView,
  uploadParams,
} from './auto-enrolment.schemas.js';
import type { AutoEnrolmentService } from './auto-enrolment.service.js';
import type { EmployerPayrollService } from './payroll-upload.service.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };

/**
 * Auto-enrolment readiness (docs/api.md, "Auto-enrolment readiness";
 * docs/decisions/0068-auto-enrolment-readiness.md).
 * Thin: each route names its action of the policy table and hands the request to
 * its service.
 */
export const autoEnrolmentRoutes: FastifyPluginAsyncZod<{
  payroll: EmployerPayrollService;
  autoEnrolment: AutoEnrolmentService;
}> = async (app, { payroll, autoEnrolment }) => {
  // The upload takes CSV only, as the stream it arrives as (imports.routes.ts); no route here
  // takes any other body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));
  const tags = ['auto-enrolment'];

  app.route({
    ...routeOf(apiRoutes.autoEnrolment.importPayroll),
    config: {
      bodyDeadlineMs: UPLOAD_BODY_DEADLINE_MS,
      action: 'ae_payroll.import',
      confirmSessionFirst: true,
    },
    schema: {
      summary:
        "Upload an employer's payroll from CSV (docs/imports.md, Payroll): all rows or none; a 400 lists every bad row by line.",
      tags,
      consumes: ['text/csv'],
      params: employerParams,
      querystring: importQuery,
      body: csvBody,
      response: {
        201: payrollUploadView,
        400: importRejection,
        403: errorBody,
        404: errorBody,
        409: errorBody,
        413: errorBody,
        415: errorBody,
        429: errorBody,
      },
    },
    handler: async (request, reply) => {
      return answerCsvUpload(request, reply, request.query.fileName, async (body) => {
        const result = await payroll.upload(actorOf(request), {
          employerId: request.params.id,
          ...body,
        });
        return result.status === 'succeeded'
          ? { status: result.status, stored: result.upload }
          : result;
      });
    },
  });
  app.route({
    ...routeOf(apiRoutes.autoEnrolment.payrollUploads),
    config: { action: 'ae_payroll.list' },
    schema: {
      summary:
        "An employer's payroll uploads, newest first: when, by whom (user id and role), rows, employees and the pay periods each covers.",
      tags,
      params: employerParams,
      querystring: payrollUploadListQuery,
      response: { 200: payrollUploadPage, ...readErrors },
    },
    handler: async (request) => payroll.list(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.autoEnrolment.payrollUpload),
    config: { action: 'ae_payroll.read' },
    schema: {
      summary:
        'One payroll upload: its status, progress while it runs (rows read, every few thousand rows) and its issues.',
      tags,
      params: uploadParams,
      response: { 200: payrollUploadView, ...readErrors },
    },
    handler: async (request) =>
      payroll.get(actorOf(request), request.params.id, request.params.importId),
  });
  app.route({
    ...routeOf(apiRoutes.autoEnrolment.removePayrollUpload),
    config: { action: 'ae_payroll.delete' },
    schema: {
      summary:
        'Delete a payroll upload with its pay lines, erasing every employee no other upload names.',
      tags,
      params: uploadParams,
      response: { 204: noContent, ...readErrors, 409: errorBody },
    },
    handler: async (request, reply) => {
      await payroll.remove(actorOf(request), request.params.id, request.params.importId);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...routeOf(apiRoutes.autoEnrolment.assessment),
    config: { action: 'auto_enrolment.read' },
    schema: {
      summary:
        "An employer's auto-enrolment assessment over the three months ending asOf (today when left out).",
      tags,
      params: employerParams,
      querystring: assessmentQuery,
      response: { 200: assessmentView, ...readErrors },
    },
    handler: async (request) =>
      autoEnrolment.assess(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.autoEnrolment.exportCsv),
    config: { action: 'auto_enrolment.export' },
    schema: {
      summary: 'The assessment as CSV, one employee a line.',
      tags,
      produces: ['text/csv'],
      params: employerParams,
      querystring: assessmentQuery,
      response: { 200: z.string(), ...readErrors },
    },
    handler: async (request, reply) => {
      const csv = await autoEnrolment.exportCsv(actorOf(request), request.params.id, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="auto-enrolment.csv"')
        .send(csv);
    },
  });
  app.route({
    ...routeOf(apiRoutes.autoEnrolment.summaryPdf),
    config: { action: 'auto_enrolment.summary' },
    schema: {
      summary: "The employer's auto-enrolment summary as a tagged PDF: counts and costs, no names.",
      tags,
      produces: ['application/pdf'],
      params: employerParams,
      querystring: assessmentQuery,
      response: { 200: z.instanceof(Buffer), ...readErrors },
    },
    handler: async (request, reply) => {
      const pdf = await autoEnrolment.summary(actorOf(request), request.params.id, request.query);
      return reply
        .type('application/pdf')
        .header('content-disposition', 'attachment; filename="auto-enrolment-summary.pdf"')
        .send(pdf);
    },
  });
  app.route({
    ...routeOf(apiRoutes.autoEnrolment.cost),
    config: { action: 'auto_enrolment.cost' },
    schema: {
      summary:
        "The employer's cost a year, over the ten-year rate schedule, of bringing below-standard members up to the minimum standard against My Future Fund.",
      tags,
      params: employerParams,
      querystring: assessmentQuery,
      response: { 200: costView, ...readErrors },
    },
    handler: async (request) =>
      autoEnrolment.cost(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.autoEnrolment.overview),
    config: { action: 'auto_enrolment.overview' },
    schema: {
      summary: "Every employer's auto-enrolment totals: the broker's dashboard figures.",
      tags,
      querystring: assessmentQuery,
      response: { 200: overviewView, 400: errorBody, 403: errorBody },
    },
    handler: async (request) => autoEnrolment.overview(actorOf(request), request.query),
  });
};
