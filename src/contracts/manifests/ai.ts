import {
  aiSettingsInput,
  aiSettingsView,
  chatRequest,
  chatResponse,
  draftChange,
  draftInput,
  draftView,
} from '../ai.js';
import { pageOf, pageQuery } from '../pages.js';
import { EXAMPLE_IDS, get, patch, post, put } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The ai module's routes (src/contracts/manifests/manifest.ts). */
export const aiManifest = defineManifest({
  name: 'ai',
  routes: {
    /** AI (docs/decisions/0066-ai-provider-guard-and-chat.md). */
    ai: {
      /** JSON, or server-sent events when asked for `text/event-stream`. */
      chat: post('/api/ai/chat', {
        body: chatRequest,
        answer: chatResponse,
        example: { body: { question: 'How often is an own-risk assessment carried out?' } },
      }),
      settings: get('/api/tenant/ai-settings', { answer: aiSettingsView }),
      updateSettings: put('/api/tenant/ai-settings', {
        body: aiSettingsInput,
        answer: aiSettingsView,
        example: { body: { monthlyRequestLimit: 500, monthlyTokenLimit: 2_000_000 } },
      }),
    },
    drafts: {
      create: post('/api/ai/drafts', {
        body: draftInput,
        answer: draftView,
        example: { body: { schemeId: EXAMPLE_IDS.scheme, kind: 'ora_outline' } },
      }),
      listOfScheme: get('/api/schemes/:id/ai/drafts', {
        query: pageQuery,
        answer: pageOf(draftView),
      }),
      get: get('/api/ai/drafts/:id', { answer: draftView }),
      update: patch('/api/ai/drafts/:id', {
        body: draftChange,
        answer: draftView,
        example: { body: { content: 'DRAFT FROM TEMPLATE\nOutline, edited' } },
      }),
      review: post('/api/ai/drafts/:id/review', { answer: draftView }),
      approve: post('/api/ai/drafts/:id/approve', { answer: draftView }),
      issue: post('/api/ai/drafts/:id/issue', { answer: draftView }),
    },
  },
  audit: {
    records: {
      ai_draft: { noun: 'an AI draft', label: 'AI draft' },
      ai_settings: { noun: 'the firm’s AI settings', label: 'AI settings' },
    },
    actions: {
      'ai.draft_created': 'Had the AI write a draft',
      'ai.draft_edited': 'Edited an AI draft',
      'ai.draft_reviewed': 'Marked an AI draft as reviewed',
      'ai.draft_approved': 'Approved the text of an AI draft',
      'ai.draft_issued': 'Issued an approved AI draft',
      'ai.settings_updated': 'Changed the firm’s AI settings',
    },
  },
});
