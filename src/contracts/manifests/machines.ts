import { ingestAnswer, ingestRequest } from '../rag.js';
import { post } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The machines module's routes (src/contracts/manifests/manifest.ts). */
export const machinesManifest = defineManifest({
  name: 'machines',
  routes: {
    /** Called by machines with a shared secret (docs/decisions/0096-bearer-prefixes-and-parser-refusals.md). */
    machines: {
      /** A scheduled job (docs/decisions/0057-scheduled-jobs.md). */
      cron: post('/api/cron/:job'),
      /** The regulatory corpus (docs/decisions/0069-regulatory-corpus-and-retrieval.md). */
      ragIngest: post('/api/rag/ingest', {
        body: ingestRequest,
        answer: ingestAnswer,
        example: {
          body: {
            documents: [
              {
                source: 'pensions-act-1990',
                title: 'Pensions Act 1990',
                url: 'https://www.irishstatutebook.ie/',
                version: '1',
                format: 'markdown',
                content: '## Section 64AL\nThe own-risk assessment.',
              },
            ],
          },
        },
      }),
    },
  },
  audit: {
    records: {
      rag_source: { noun: 'a text of the regulatory corpus', label: 'Regulatory text' },
    },
    actions: {
      'rag_source.ingested': 'Loaded a text into the regulatory corpus',
    },
  },
});
