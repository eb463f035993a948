import {
  memberChange,
  memberExport,
  memberInput,
  memberListQuery,
  memberView,
  revealedPps,
} from '../members.js';
import { pageOf } from '../pages.js';
import {
  contactChange,
  contactView,
  memberPageQuery,
  memberPageView,
  memberSummary,
} from '../portal.js';
import { ppsRevealInput, ppsRevealsView } from '../pps-reveal.js';
import { get, patch, post, remove } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The members module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const membersManifest = defineManifest({
  name: 'members',
  routes: {
    members: {
      create: post('/api/schemes/:id/members', {
        body: memberInput,
        answer: memberView,
        example: {
          body: {
            firstName: 'Aoife',
            lastName: 'Murphy',
            dateOfBirth: '1985-04-12',
            dateJoined: '2015-09-01',
            salaryCents: 5_500_000,
            ppsNumber: '1234567TW',
            email: 'aoife.murphy@example.ie',
            address: '1 Main Street\nGalway',
          },
        },
      }),
      listOfScheme: get('/api/schemes/:id/members', {
        query: memberListQuery,
        answer: pageOf(memberView),
      }),
      get: get('/api/members/:id', { answer: memberView }),
      update: patch('/api/members/:id', {
        body: memberChange,
        answer: memberView,
        example: { body: { address: '3 New Road\nCork' } },
      }),
      remove: remove('/api/members/:id'),
      revealPps: post('/api/members/:id/pps/reveal', {
        body: ppsRevealInput,
        answer: revealedPps,
        example: { body: { reason: 'other', note: 'Checking the number against a P60' } },
      }),
      ppsReveals: get('/api/members/:id/pps/reveals', { answer: ppsRevealsView }),
      /** Everything held about a member, as JSON (GDPR access and portability). */
      export: get('/api/members/:id/export', { answer: memberExport }),
      /** A member's own pension at a glance (the portal). */
      summary: get('/api/members/:id/summary', { answer: memberSummary }),
      /** What the member page shows, in one request. */
      page: get('/api/members/:id/page', {
        query: memberPageQuery,
        answer: memberPageView,
        example: { query: { chartFrom: '2024-01' } },
      }),
      updateContact: patch('/api/members/:id/contact', {
        body: contactChange,
        answer: contactView,
        example: { body: { address: '4 Quay Street\nGalway' } },
      }),
      /** The member's own data as a CSV attachment. */
      exportCsv: get('/api/members/:id/export.csv'),
      /** The same data as a readable PDF, to answer an access request (GDPR Art. 15). */
      exportPdf: get('/api/members/:id/export.pdf'),
    },
  },
  audit: {
    records: {
      member: { noun: 'a member', label: 'Member' },
      pps_key: { noun: 'the PPS encryption key', label: 'PPS encryption key' },
    },
    actions: {
      'member.created': 'Added a member',
      'member.updated': 'Changed a member’s details',
      'member.deleted': 'Deleted a member',
      'member.pps_decrypted': 'Revealed a member’s PPS number',
      'member.exported': 'Exported everything held about a member',
      'member.contact_updated': 'Changed their own contact details in the member portal',
      'member.viewed': 'Viewed a member’s record',
      'member.listed': 'Listed members',
      'pps_key.rotated': 'Re-encrypted PPS numbers under a new key',
    },
  },
});
