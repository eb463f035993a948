import {
  assessmentQuery,
  assessmentView,
  overviewView as autoEnrolmentOverviewView,
  costView,
  payrollUploadListQuery,
  payrollUploadPage,
  payrollUploadView,
} from '../auto-enrolment.js';
import { importQuery } from '../imports.js';
import { get, post, remove } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The auto enrolment module's routes (src/contracts/manifests/manifest.ts). */
export const autoEnrolmentManifest = defineManifest({
  name: 'auto-enrolment',
  routes: {
    /** Automatic enrolment readiness (docs/decisions/0068-auto-enrolment-readiness.md). */
    autoEnrolment: {
      importPayroll: post('/api/employers/:id/payroll/import', {
        query: importQuery,
        answer: payrollUploadView,
      }),
      payrollUploads: get('/api/employers/:id/payroll/imports', {
        query: payrollUploadListQuery,
        answer: payrollUploadPage,
      }),
      payrollUpload: get('/api/employers/:id/payroll/imports/:importId', {
        answer: payrollUploadView,
      }),
      removePayrollUpload: remove('/api/employers/:id/payroll/imports/:importId'),
      assessment: get('/api/employers/:id/auto-enrolment', {
        query: assessmentQuery,
        answer: assessmentView,
        example: { query: { asOf: '2026-03-31' } },
      }),
      /** The assessment as a CSV attachment. */
      exportCsv: get('/api/employers/:id/auto-enrolment/export', {
        query: assessmentQuery,
        example: { query: { asOf: '2026-03-31' } },
      }),
      summaryPdf: get('/api/employers/:id/auto-enrolment/summary.pdf', {
        query: assessmentQuery,
        example: { query: { asOf: '2026-03-31' } },
      }),
      cost: get('/api/employers/:id/auto-enrolment/cost', {
        query: assessmentQuery,
        answer: costView,
        example: { query: { asOf: '2026-03-31' } },
      }),
      overview: get('/api/auto-enrolment/overview', {
        query: assessmentQuery,
        answer: autoEnrolmentOverviewView,
        example: { query: { asOf: '2026-03-31' } },
      }),
    },
  },
});
