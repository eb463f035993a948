import { documentListQuery, documentUrlView, documentView } from '../documents.js';
import { pageOf } from '../pages.js';
import { get, post, remove } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The documents module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const documentsManifest = defineManifest({
  name: 'documents',
  routes: {
    /** The document vault (docs/decisions/0062-document-vault.md). */
    documents: {
      /** A multipart form: the fields, then the file. */
      upload: post('/api/schemes/:id/documents', { answer: documentView }),
      listOfScheme: get('/api/schemes/:id/documents', {
        query: documentListQuery,
        answer: pageOf(documentView),
      }),
      get: get('/api/documents/:id', { answer: documentView }),
      remove: remove('/api/documents/:id'),
      /** A signed address of the file, good for minutes (docs/decisions/0099-signed-urls-bound-to-the-session.md). */
      url: get('/api/documents/:id/url', { answer: documentUrlView }),
      /** The scheme's governance evidence as a ZIP attachment. */
      evidencePack: get('/api/schemes/:id/evidence-pack'),
    },
  },
  audit: {
    records: {
      document: { noun: 'a document', label: 'Document' },
    },
    actions: {
      'document.uploaded': 'Uploaded a document',
      'document.scanned': 'Had a document checked for malware',
      'document.url_issued': 'Was given a link to download a document',
      'document.downloaded': 'Downloaded a document',
      'document.deleted': 'Deleted a document',
      'document.listed': 'Listed documents',
      'document.viewed': 'Viewed a document',
    },
  },
});
