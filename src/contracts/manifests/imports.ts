import { importQuery, importSummary, importView } from '../imports.js';
import { pageOf, pageQuery } from '../pages.js';
import { get, post } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The imports module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const importsManifest = defineManifest({
  name: 'imports',
  routes: {
    /** CSV imports into a scheme, one route a kind of import (docs/imports.md). */
    imports: {
      members: post('/api/schemes/:id/members/import', { query: importQuery, answer: importView }),
      contributions: post('/api/schemes/:id/contributions/import', {
        query: importQuery,
        answer: importView,
      }),
      listOfScheme: get('/api/schemes/:id/imports', {
        query: pageQuery,
        answer: pageOf(importSummary),
      }),
      get: get('/api/imports/:id', { answer: importView }),
    },
  },
  audit: {
    records: {
      import: { noun: 'a CSV import', label: 'CSV import' },
    },
    actions: {
      'import.succeeded': 'Imported a CSV file',
      'import.rejected': 'Had a CSV import rejected',
      'import.failed': 'Had a CSV import fail',
      'import.viewed': 'Viewed a CSV import',
      'import.listed': 'Listed CSV imports',
    },
  },
});
