import { z } from 'zod';
import { POLICY_KINDS } from './governance-rules.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { SOURCE_KINDS } from './rag.js';
import { idText, text } from './text.js';

/**
 * The AI endpoints (docs/api.md, "The AI assistant";
 * docs/decisions/0066-ai-provider-guard-and-chat.md): chat over the regulatory sources, the firm's
 * own provider key and its usage, and drafts of governance writing. Shared by the API and the
 * browser.
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
  /** A summary written for this service, or the text as ingested (contracts/rag.ts). */
  sourceKind: z.enum(SOURCE_KINDS),
});
export type ChatCitation = z.infer<typeof chatCitation>;

/**
 * How the service answers: `extracts` when no AI provider is configured (the answer quotes the
 * passages as the service holds them, each headed by what it is: a summary or the text as
 * written), `ai` when one is (the answer was written by the model and checked against its
 * citations). docs/decisions/0066-ai-provider-guard-and-chat.md.
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

/** What each kind of draft is, as the drafts workspace and the audit log name it. */
export const DRAFT_KIND_NAMES: Record<DraftKind, string> = {
  written_policy: 'Written policy',
  ora_outline: 'Own-risk assessment outline',
  kfh_appointment_letter: 'Key function holder appointment letter',
};
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
 * (docs/decisions/0067-ai-drafts.md). `approvedDiff` is that comparison as recorded at approval.
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
  /**
   * Who wrote the text, as account ids: whoever generated it, then everyone who edited it since
   * (docs/decisions/0083-ai-drafts-four-eyes.md). Ids only, as the audit records accounts.
   */
  authors: z.array(z.string()),
  /** The account that marked the text as reviewed, while it stands reviewed or later. */
  reviewedBy: z.string().nullable(),
  /** Whether the firm's drafts need four eyes now: its own setting or the platform's default. */
  fourEyes: z.boolean(),
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

// The rules of the draft lifecycle that the browser explains before a person acts and the
// service enforces (docs/decisions/0056-shared-contracts.md; 0083-ai-drafts-four-eyes.md).

export const FOUR_EYES_REVIEW =
  'Four eyes: a draft is reviewed by someone who did not generate or edit it. Ask a colleague to review it.';
export const FOUR_EYES_APPROVAL =
  'Four eyes: a draft is approved by someone who did not generate, edit or review it. Ask a colleague to approve it.';

/** Why four eyes keep this person from a step: they wrote the text, or they reviewed it. */
export type FourEyesBar = 'author' | 'reviewer';

/**
 * Whether four eyes keep `userId` from reviewing or approving the draft, and why: with four eyes
 * on, the reviewer is none of its authors, and the approver neither an author nor its reviewer.
 * Null when the step is theirs to take as far as four eyes go.
 */
export function fourEyesBar(
  step: 'review' | 'approve',
  draft: Pick<DraftView, 'fourEyes' | 'authors' | 'reviewedBy'>,
  userId: string,
): FourEyesBar | null {
  if (!draft.fourEyes) return null;
  if (draft.authors.includes(userId)) return 'author';
  if (step === 'approve' && draft.reviewedBy === userId) return 'reviewer';
  return null;
}

/** The refusal of a step four eyes bar, as the service answers it (409) and the page shows it. */
export const FOUR_EYES_REFUSAL = { review: FOUR_EYES_REVIEW, approve: FOUR_EYES_APPROVAL } as const;

/**
 * How each banner begins (the first line the template and the provider write, draft-templates.rules.ts),
 * however the rest of its line was edited.
 */
const BANNER_STARTS = ['DRAFT WRITTEN BY AI', 'DRAFT FROM TEMPLATE'];

/**
 * The text without its banner: the first line, when it begins as a banner does, and the blank
 * lines after it. Approved text is no longer a draft, and the issued PDF must not say it is
 * not approved (only approved text is issued: docs/decisions/0083-ai-drafts-four-eyes.md).
 */
export function withoutBanner(content: string): string {
  const lines = content.split('\n');
  let first = 0;
  while (first < lines.length && (lines[first] as string).trim() === '') first += 1;
  const line = (lines[first] ?? '').trimStart();
  if (!BANNER_STARTS.some((start) => line.startsWith(start))) return content;
  let next = first + 1;
  while (next < lines.length && (lines[next] as string).trim() === '') next += 1;
  return lines.slice(next).join('\n');
}

/** The most placeholders an approval refusal names, and the longest it quotes one. */
const NAMED_PLACEHOLDERS = 10;
const QUOTED_MAX = 80;

/**
 * The placeholders left in a text, as the template and the provider write them (`[scheme
 * name]`): a bracket, whatever it holds on one line, its closing bracket. However long it is, it
 * is a placeholder: the template's own run past 100 characters, and a long one missed would be
 * approved unfilled. One pass, no pattern: a character is read once from the nearest bracket
 * before it, since a scan stops at the next bracket or line.
 */
export function placeholdersIn(text: string): string[] {
  const found = new Set<string>();
  let open = text.indexOf('[');
  while (open !== -1) {
    let close = open + 1;
    while (close < text.length && !'[]\n'.includes(text[close] as string)) {
      close += 1;
    }
    if (text[close] === ']' && close > open + 1) {
      found.add(text.slice(open, close + 1));
      open = text.indexOf('[', close + 1);
    } else {
      open = text.indexOf('[', open + 1);
    }
  }
  return [...found];
}

/** The placeholders left in a draft's text as it would be approved: its banner goes at approval. */
export function placeholdersToFill(content: string): string[] {
  return placeholdersIn(withoutBanner(content));
}

/**
 * Why a text with placeholders left is not approved, naming up to ten of them; null when none
 * is left. Approval is refused while any remains (docs/decisions/0083-ai-drafts-four-eyes.md).
 */
export function placeholdersRefusal(placeholders: readonly string[]): string | null {
  if (placeholders.length === 0) return null;
  const named = placeholders
    .slice(0, NAMED_PLACEHOLDERS)
    .map((placeholder) =>
      placeholder.length > QUOTED_MAX ? `${placeholder.slice(0, QUOTED_MAX - 2)}…]` : placeholder,
    )
    .join(', ')
    .concat(placeholders.length > NAMED_PLACEHOLDERS ? ', …' : '');
  return `Fill in the placeholders before approving: ${named}. Edit the text, then have it reviewed again.`;
}
