import { z } from 'zod';
import { POLICY_KINDS } from './governance-rules.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { idText, text } from './text.js';

/**
 * The AI endpoints (decisions.md §6 "AI"; docs/decisions/0066-ai-provider-guard-and-chat.md):
 * chat over the regulatory sources, the firm's own provider key and its usage, and
 * drafts of governance writing. Shared by the API and the browser.
 */

/** A question is one short paragraph: the sources are what is long, and they come from retrieval. */
export const QUESTION_MAX_LENGTH = 2000;

export const chatRequest = z.object({
  question: text({ max: QUESTION_MAX_LENGTH, multiline: true }).min(1, FIELD_MESSAGES.required),
});
export type ChatRequest = z.infer<typeof chatRequest>;

export const chatCitation = z.object({
  chunkId: z.string(),
  citation: z.string(),
  title: z.string(),
  url: z.string().optional(),
});
export type ChatCitation = z.infer<typeof chatCitation>;

/**
 * How the service answers: `extracts` when no AI provider is configured (the answer quotes the
 * passages as written), `ai` when one is (the answer was written by the model and checked against
 * its citations). docs/decisions/0066-ai-provider-guard-and-chat.md.
 */
export const CHAT_MODES = ['extracts', 'ai'] as const;
export type ChatMode = (typeof CHAT_MODES)[number];

/**
 * `answered` is false when the sources hold nothing relevant (no provider was asked), and when an
 * answer was refused for citing a source that was not given to it. `mode` says how an answer is
 * made, so that nobody has to tell an AI answer from quoted text by reading it.
 */
export const chatResponse = z.object({
  answer: z.string(),
  citations: z.array(chatCitation),
  answered: z.boolean(),
  mode: z.enum(CHAT_MODES),
});
export type ChatResponse = z.infer<typeof chatResponse>;

/** The events of `Accept: text/event-stream`: text as it comes, then the same body as JSON. */
export const CHAT_EVENTS = { delta: 'delta', done: 'done' } as const;

// The firm's own provider key and limits.

const limit = (max: number) =>
  z
    .number({ error: FIELD_MESSAGES.required })
    .int(FIELD_MESSAGES.required)
    .min(0, FIELD_MESSAGES.required)
    .max(max, FIELD_MESSAGES.required);

/**
 * `apiKey`: a new key, or null to go back to the platform's. A limit of null goes back to the
 * platform's default. Fields left out are left as they are.
 */
export const aiSettingsInput = z
  .object({
    apiKey: text({ max: 500, trim: true }).min(8, FIELD_MESSAGES.required).nullable().optional(),
    monthlyRequestLimit: limit(1_000_000).nullable().optional(),
    monthlyTokenLimit: limit(10_000_000_000).nullable().optional(),
    /**
     * Whether a draft needs a reviewer and an approver besides its authors, each a different
     * person; null goes back to the platform's default (on outside development).
     */
    fourEyes: z.boolean({ error: FIELD_MESSAGES.required }).nullable().optional(),
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: FIELD_MESSAGES.somethingToChange,
  });
export type AiSettingsInput = z.infer<typeof aiSettingsInput>;

/** Whether a key is set, never the key. */
export const aiSettingsView = z.object({
  provider: z.enum(['anthropic', 'openai', 'none']),
  apiKeySet: z.boolean(),
  monthlyRequestLimit: z.number(),
  monthlyTokenLimit: z.number(),
  /** Whether drafts need four eyes now: the firm's choice, or the platform's default. */
  fourEyes: z.boolean(),
  usage: z.object({
    month: z.string(),
    requests: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
  }),
});
export type AiSettingsView = z.infer<typeof aiSettingsView>;

// Drafts.

export const DRAFT_KINDS = ['written_policy', 'ora_outline', 'kfh_appointment_letter'] as const;
export type DraftKind = (typeof DRAFT_KINDS)[number];
export const DRAFT_STATUSES = ['draft', 'reviewed', 'approved', 'issued'] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];

export const draftInput = z
  .object({
    schemeId: idText,
    kind: z.enum(DRAFT_KINDS, { error: FIELD_MESSAGES.required }),
    policyKind: z.enum(POLICY_KINDS, { error: FIELD_MESSAGES.policyKind }).optional(),
  })
  .refine((draft) => (draft.kind === 'written_policy') === (draft.policyKind !== undefined), {
    message: 'A written policy draft names its policyKind; other drafts do not',
    path: ['policyKind'],
  });
export type DraftInput = z.infer<typeof draftInput>;

export const draftChange = z.object({
  content: text({ max: 100_000, multiline: true, trim: false }).min(1, FIELD_MESSAGES.required),
});
export type DraftChange = z.infer<typeof draftChange>;

/**
 * `content` is the text as it stands; `generatedContent` the text the provider or the template
 * wrote, which never changes, so a reviewer can compare every edit with it before approving
 * (decisions.md §6 "AI"). `approvedDiff` is that comparison as recorded at approval.
 */
export const draftView = z.object({
  id: z.string(),
  schemeId: z.string(),
  kind: z.enum(DRAFT_KINDS),
  policyKind: z.enum(POLICY_KINDS).nullable(),
  status: z.enum(DRAFT_STATUSES),
  generatedBy: z.enum(['ai', 'template']),
  content: z.string(),
  generatedContent: z.string(),
  reviewedAt: z.string().nullable(),
  approvedAt: z.string().nullable(),
  approvedDiff: z
    .object({
      added: z.number(),
      removed: z.number(),
      unchanged: z.number(),
      lines: z.array(z.string()),
    })
    .nullable(),
  issuedAt: z.string().nullable(),
  issuedPolicyId: z.string().nullable(),
  /** The PDF of the approved text, stored as a document of the scheme at issue. */
  issuedDocumentId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DraftView = z.infer<typeof draftView>;
