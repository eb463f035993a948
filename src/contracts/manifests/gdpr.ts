import {
  dataRequestCompletion,
  dataRequestExtension,
  dataRequestInput,
  dataRequestQuery,
  dataRequestRefusal,
  dataRequestView,
} from '../data-requests.js';
import { pageOf } from '../pages.js';
import { rectificationInput, rectificationView } from '../rectification.js';
import { erasureAnswer, memberRetentionView, restrictionInput } from '../retention.js';
import { EXAMPLE_IDS, get, post } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/**
 * The gdpr module's routes and audit words (docs/decisions/0137-data-subject-requests.md): the
 * register of what members asked the firm for, each step answering the request as it now stands.
 * The member export is the members' group's (`apiRoutes.members.export`).
 */
export const gdprManifest = defineManifest({
  name: 'gdpr',
  routes: {
    dataRequests: {
      create: post('/api/data-requests', {
        body: dataRequestInput,
        answer: dataRequestView,
        example: {
          body: { memberId: EXAMPLE_IDS.member, kind: 'access', receivedOn: '2026-01-05' },
        },
      }),
      list: get('/api/data-requests', {
        query: dataRequestQuery,
        answer: pageOf(dataRequestView),
        example: { query: { status: 'open' } },
      }),
      get: get('/api/data-requests/:id', { answer: dataRequestView }),
      extend: post('/api/data-requests/:id/extend', {
        body: dataRequestExtension,
        answer: dataRequestView,
        example: {
          body: { reason: 'Records for twenty years are held in two archives; told by letter' },
        },
      }),
      complete: post('/api/data-requests/:id/complete', {
        body: dataRequestCompletion,
        answer: dataRequestView,
        example: { body: { note: 'Copy of the data sent by registered post' } },
      }),
      refuse: post('/api/data-requests/:id/refuse', {
        body: dataRequestRefusal,
        answer: dataRequestView,
        example: {
          body: {
            reason: 'The scheme must keep contribution records while benefits are payable',
            citation: 'GDPR Art. 17(3)(b)',
          },
        },
      }),
      erase: post('/api/data-requests/:id/erase', { answer: erasureAnswer }),
    },
    retention: {
      get: get('/api/members/:id/retention', { answer: memberRetentionView }),
      restrict: post('/api/members/:id/restriction', {
        body: restrictionInput,
        answer: memberRetentionView,
        example: { body: { reason: 'The member says the salary recorded for 2024 is wrong' } },
      }),
      lift: post('/api/members/:id/restriction/lift', { answer: memberRetentionView }),
    },
    // A rectification's completion with the recipients told
    // (docs/decisions/0148-rectification-and-recipients.md).
    rectification: {
      get: get('/api/data-requests/:id/rectification', { answer: rectificationView }),
      complete: post('/api/data-requests/:id/rectification', {
        body: rectificationInput,
        answer: rectificationView,
        example: {
          body: {
            correctedFields: ['address', 'salary'],
            recipients: [{ name: 'The employer’s payroll', toldOn: '2026-01-12' }],
            note: 'Corrected on the member record from the payslip sent in',
          },
        },
      }),
    },
  },
  audit: {
    records: {
      data_request: { noun: 'a data-subject request', label: 'Data-subject request' },
    },
    actions: {
      'data_request.recorded': 'Recorded a data-subject request',
      'data_request.extended': 'Extended a data-subject request',
      'data_request.completed': 'Completed a data-subject request',
      'data_request.refused': 'Refused a data-subject request',
      'data_request.listed': 'Listed data-subject requests',
      'data_request.viewed': 'Viewed a data-subject request',
      'member.erased': "Erased a member's record, or their contact details",
      'member.erasure_reapplied': 'Applied an erasure again after a restore',
      'member.restricted': "Restricted a member's data",
      'member.restriction_lifted': "Lifted the restriction of a member's data",
    },
  },
});
