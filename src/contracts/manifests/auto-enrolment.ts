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
  audit: {
    records: {
      payroll_upload: { noun: 'a payroll upload', label: 'Payroll upload' },
    },
    actions: {
      'auto_enrolment.viewed': 'Viewed an employer’s automatic-enrolment assessment',
      'auto_enrolment.exported': 'Exported an employer’s automatic-enrolment assessment as CSV',
      'payroll_upload.succeeded': 'Uploaded a payroll file',
      'payroll_upload.rejected': 'Had a payroll file refused',
      'payroll_upload.failed': 'Had a payroll upload fail',
      'payroll_upload.deleted': 'Deleted a payroll upload and the employees only it named',
    },
    retired: {
      'auto_enrolment.summary_downloaded':
        'Downloaded an employer’s automatic-enrolment summary (PDF)',
      'auto_enrolment.cost_viewed': 'Viewed an employer’s automatic-enrolment cost comparison',
      'auto_enrolment.overview_viewed': 'Viewed every employer’s automatic-enrolment position',
      'payroll_upload.viewed': 'Followed a payroll upload',
      'payroll_upload.listed': 'Listed an employer’s payroll uploads',
    },
  },
});
