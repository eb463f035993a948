import {
  schemeChange,
  schemeDetailView,
  schemeInput,
  schemeListQuery,
  schemeView,
} from '../organisation.js';
import { pageOf } from '../pages.js';
import { EXAMPLE_IDS, get, patch, post, remove } from '../route-kit.js';
import { schemeWindUpInput } from '../scheme-wind-up.js';
import { defineManifest } from './manifest.js';

/** The schemes module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const schemesManifest = defineManifest({
  name: 'schemes',
  routes: {
    schemes: {
      create: post('/api/schemes', {
        body: schemeInput,
        answer: schemeView,
        example: {
          body: {
            employerId: EXAMPLE_IDS.employer,
            name: 'Staff Pension Scheme',
            type: 'DC',
            srNumber: 'SR123456',
            startDate: '2024-01-01',
            employeeContributionBasisPoints: 500,
            employerContributionBasisPoints: 750,
          },
        },
      }),
      list: get('/api/schemes', { query: schemeListQuery, answer: pageOf(schemeView) }),
      get: get('/api/schemes/:id', { answer: schemeDetailView }),
      update: patch('/api/schemes/:id', {
        body: schemeChange,
        answer: schemeDetailView,
        example: { body: { name: 'Staff Pension Plan', employerContributionBasisPoints: 800 } },
      }),
      remove: remove('/api/schemes/:id'),
      /** Closing a scheme that has had members (docs/decisions/0146-schemes-wound-up-not-deleted.md). */
      windUp: post('/api/schemes/:id/wind-up', {
        body: schemeWindUpInput,
        answer: schemeDetailView,
        example: {
          body: {
            woundUpOn: '2026-01-31',
            reason: 'other',
            note: 'Members moved to the group PRSA arrangement',
          },
        },
      }),
    },
  },
  audit: {
    records: {
      scheme: { noun: 'a scheme', label: 'Scheme' },
    },
    actions: {
      'scheme.created': 'Created a scheme',
      'scheme.updated': 'Changed a scheme’s details',
      'scheme.deleted': 'Deleted a scheme',
      'scheme.wound_up': 'Wound up a scheme',
      'scheme.viewed': 'Viewed a scheme',
      'scheme.listed': 'Listed schemes',
      'scheme.evidence_pack_generated': 'Generated a scheme’s evidence pack',
    },
  },
});
