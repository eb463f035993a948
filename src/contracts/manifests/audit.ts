import { auditFilters, auditRecordView } from '../audit.js';
import { pageOf, pageQuery } from '../pages.js';
import { get } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The audit module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const auditManifest = defineManifest({
  name: 'audit',
  routes: {
    audit: {
      list: get('/api/audit', {
        query: pageQuery.extend(auditFilters.shape),
        answer: pageOf(auditRecordView),
      }),
      exportCsv: get('/api/audit/export.csv', { query: auditFilters }),
    },
  },
  audit: {
    records: {
      audit: { noun: 'the audit log', label: 'Audit log' },
    },
    actions: {
      'audit.listed': 'Read the audit log',
      'audit.exported': 'Exported the audit log as CSV',
    },
  },
});
