import {
  type ChatCitation,
  type ChatMode,
  type ChatResponse,
  DRAFT_KIND_NAMES,
  FOUR_EYES_REFUSAL,
  fourEyesBar,
  placeholdersRefusal,
  placeholdersToFill,
} from '../../../contracts/ai';
import { POLICY_KIND_NAMES } from '../../../contracts/governance-rules';
import { counted } from '../../../contracts/plain-english';
import { ROLE_NAMES } from '../../../contracts/roles';
import { ApiError, describeError } from '../../api/client';
import type { AiSettings, Draft, DraftStatus } from '../../api/types';
import { AnswerCutOffError } from './ask';

/**
 * The words of the AI pages, kept apart from the components so that each rule of what
 * a person is told has one place and a unit test.
 */

/**
 * A link to an official text, only when it is a web address: the corpus is ingested from outside
 * the service, and a `javascript:` or `data:` address in a link would run in the page.
 */
export function officialTextUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * What a cited passage is, as the Sources list names it (docs/decisions/0124-summaries-labelled-as-summaries.md):
 * a summary written for the service is never shown as the words of the law it summarises.
 */
export const SOURCE_KIND_NAMES: Record<ChatCitation['sourceKind'], string> = {
  summary: 'summary',
  text: 'quoted as written',
};

/** What the open source says of its passage, beside its citation and the link to the official text. */
export function sourceKindNote(citation: Pick<ChatCitation, 'sourceKind' | 'title'>): string {
  return citation.sourceKind === 'summary'
    ? 'A summary written for this service in its own words, not the original text. Read the official text before relying on it.'
    : `Quoted as written from ${citation.title}, as the service holds it.`;
}

/**
 * What the label of an answer made of extracts says of them: that they are summaries in the
 * service's own words, or the texts as written, or some of each, as their citations say.
 */
export function extractsNote(citations: readonly Pick<ChatCitation, 'sourceKind'>[]): string {
  const summaries = citations.filter((citation) => citation.sourceKind === 'summary').length;
  const after =
    'They match your question; they are not a written answer. Read each with its source.';
  if (summaries === citations.length) {
    return `Passages from summaries written for this service in its own words, not the original texts. ${after}`;
  }
  if (summaries === 0) {
    return `Passages quoted as written from the regulatory texts. ${after}`;
  }
  return `Passages from the regulatory sources: each says whether it is a summary in this service’s own words or quoted as written. ${after}`;
}

/** What the label of an AI answer says of the sources it was written from. */
export function aiAnswerNote(citations: readonly Pick<ChatCitation, 'sourceKind'>[]): string {
  const fromSummaries = citations.some((citation) => citation.sourceKind === 'summary')
    ? ' Sources marked as summaries were written for this service in its own words: they are not the original texts.'
    : '';
  return `Written by an AI model from the sources below. It can be wrong: check each point against its source before relying on it. It is not legal advice.${fromSummaries}`;
}

/**
 * When nothing retrieved answers the question (`answered: false`,
 * docs/decisions/0066-ai-provider-guard-and-chat.md).
 */
export const NOT_ANSWERED = 'The regulatory texts we hold don’t answer this.';

/**
 * The refusal of a question holding personal data
 * (docs/decisions/0066-ai-provider-guard-and-chat.md;
 * docs/decisions/0134-the-contract-in-this-repository.md, "Personal data and secrets stay inside"):
 * a 400 whose issue on `question` has this code, before anything is sent to a provider.
 */
export const PERSONAL_DATA_CODE = 'personal_data';
export const PERSONAL_DATA_ADVICE =
  'Remove personal details such as PPS numbers or e-mail addresses, then ask again. Questions are about the rules, never about a named person.';

/** What a person reads when a question, a draft or the settings could not be handled. */
export function aiProblem(error: unknown): string {
  if (error instanceof AnswerCutOffError)
    return 'The answer stopped before it was complete, so it is not shown. Please ask again.';
  if (!(error instanceof ApiError)) return describeError(error);
  if (error.status === 503)
    return 'The AI service is not answering just now. Please try again in a few minutes.';
  if (error.status === 429) {
    return /month/i.test(error.error)
      ? `Your firm has used this month’s AI allowance. It renews on the first of next month; a ${ROLE_NAMES.BrokerAdmin.toLowerCase()} can raise the limit in AI settings.`
      : 'Too many questions in a short time. Please wait a minute and try again.';
  }
  return describeError(error);
}

export { DRAFT_KIND_NAMES };

/** The name of one draft: its kind, and for a written policy which policy. */
export function draftName(draft: Pick<Draft, 'kind' | 'policyKind'>): string {
  return draft.kind === 'written_policy' && draft.policyKind
    ? POLICY_KIND_NAMES[draft.policyKind]
    : DRAFT_KIND_NAMES[draft.kind];
}

/** Each status in words, with its badge colour; the words carry the meaning, not the colour. */
export const DRAFT_STATUS: Record<DraftStatus, { label: string; color: string; next: string }> = {
  draft: {
    label: 'Draft',
    color: 'blue',
    next: 'Read and edit the text, then mark it as reviewed.',
  },
  reviewed: {
    label: 'Reviewed',
    color: 'yellow',
    next: 'Reviewed: approve it when the text is final. Editing it again sends it back for review.',
  },
  approved: {
    label: 'Approved',
    color: 'green',
    next: 'Approved: the text can no longer change. Issue it to use it.',
  },
  issued: {
    label: 'Issued',
    color: 'gray',
    next: 'Issued: the approved text is kept as a PDF among the scheme’s documents.',
  },
};

/**
 * Where a draft stands, in one true sentence: an issued written policy is a draft version in the
 * governance registers, applied only once the trustees approve it there (Directive (EU) 2016/2341
 * Art. 21: a policy is approved before it is applied), never "in use" on its issue.
 */
export function draftStanding(draft: Pick<Draft, 'status' | 'kind'>): string {
  const { next } = DRAFT_STATUS[draft.status];
  return draft.status === 'issued' && draft.kind === 'written_policy'
    ? `${next} The policy is a draft version in the scheme’s governance registers, not in use until the trustees approve it there.`
    : next;
}

/** Who wrote the first text: an AI model (the firm's or the platform's provider), or the template. */
export const GENERATED_BY_NAMES: Record<Draft['generatedBy'], string> = {
  ai: 'AI-generated',
  template: 'From the template',
};

/**
 * A draft's text may change until it is approved: only approved text is issued
 * (docs/decisions/0067-ai-drafts.md).
 */
export function editable(status: DraftStatus): boolean {
  return status === 'draft' || status === 'reviewed';
}

/**
 * Why `userId` cannot take the next step on a draft, said before they try: four eyes (the firm's
 * setting, and who wrote and reviewed the text), then, for approval, the placeholders still in
 * the saved text. The rules are contracts/ai.ts's, the ones the service applies; null when
 * neither stands in the way.
 */
export function stepBlocked(
  step: 'review' | 'approve',
  draft: Pick<Draft, 'fourEyes' | 'authors' | 'reviewedBy' | 'content'>,
  userId: string,
): string | null {
  const bar = fourEyesBar(step, draft, userId);
  if (bar) {
    const you =
      bar === 'author' ? 'You generated or edited this draft.' : 'You reviewed this draft.';
    return `${you} ${FOUR_EYES_REFUSAL[step]}`;
  }
  return step === 'approve' ? placeholdersRefusal(placeholdersToFill(draft.content)) : null;
}

/**
 * What the page says of the placeholders (`[date]`) in the text as it stands in the editor: what
 * is left to fill in before the draft can be approved.
 */
export function placeholdersNote(text: string): { left: string[]; note: string } {
  const left = placeholdersToFill(text);
  return {
    left,
    note:
      left.length === 0
        ? 'No placeholders are left: nothing in square brackets is waiting to be filled in.'
        : `Fill in each placeholder in square brackets before the draft is approved: ${counted(left.length, 'placeholder')} left.`,
  };
}

/** Four eyes on AI drafts, as a BrokerAdmin reads the firm's setting. */
export function fourEyesText(on: boolean): { state: string; about: string } {
  return on
    ? {
        state: 'Four eyes is on',
        about:
          'Each AI draft is checked by people who did not write it: someone who did not generate or edit it marks it as reviewed, and a third person, who neither wrote nor reviewed it, approves it.',
      }
    : {
        state: 'Four eyes is off',
        about:
          'One person may generate, edit, review and approve a draft on their own. Turn four eyes on when your firm has colleagues to check each other’s drafts.',
      };
}

/** The provider the platform is configured with (AI_PROVIDER), as a BrokerAdmin reads it. */
export const PROVIDER_NAMES: Record<AiSettings['provider'], string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI-compatible',
  none: 'None: answers are extracts from the texts, and drafts come from the template',
};

/** How much of a monthly limit is used, in whole percent, 100 at or past the limit. */
export function usageShare(used: number, limit: number): number {
  if (limit <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.floor((used / limit) * 100));
}

/**
 * An answer's text cut into what the page shows: paragraphs (blank-line separated), and within a
 * paragraph each run of lines starting with `> ` a quotation (the extracts quote the texts that
 * way, under the line naming their source); within each, text and the citation marks
 * `[[chunk:ID]]` the server writes after each statement (docs/decisions/0066-ai-provider-guard-and-chat.md).
 * Every piece is plain text for React to escape: nothing in an answer is
 * ever markup.
 */
export type AnswerPiece =
  | { kind: 'text'; at: number; text: string }
  | { kind: 'mark'; at: number; chunkId: string };
export interface AnswerParagraph {
  /** Where the block starts in the answer: a key that stays put while the answer grows. */
  at: number;
  quote: boolean;
  pieces: AnswerPiece[];
}

const MARK = /\[\[chunk:([A-Za-z0-9_-]{1,128})\]\]/g;
const PARAGRAPH_BREAK = /\n[ \t]*\n/g;

export function answerParagraphs(answer: string): AnswerParagraph[] {
  const blocks: AnswerParagraph[] = [];
  const addRun = (at: number, lines: string[], quote: boolean) => {
    const body = quote
      ? lines.map((line) => line.replace(/^> ?/, '')).join('\n')
      : lines.join('\n');
    if (body.trim() !== '') blocks.push({ at, quote, pieces: piecesOf(body) });
  };
  const addParagraph = (at: number, paragraph: string) => {
    let runAt = at;
    let run: string[] = [];
    let quote = false;
    let offset = at;
    for (const line of paragraph.split('\n')) {
      const quoted = line.startsWith('>');
      if (run.length > 0 && quoted !== quote) {
        addRun(runAt, run, quote);
        run = [];
      }
      if (run.length === 0) {
        runAt = offset;
        quote = quoted;
      }
      run.push(line);
      offset += line.length + 1;
    }
    addRun(runAt, run, quote);
  };
  let from = 0;
  for (const match of answer.matchAll(PARAGRAPH_BREAK)) {
    addParagraph(from, answer.slice(from, match.index));
    from = match.index + match[0].length;
  }
  addParagraph(from, answer.slice(from));
  return blocks;
}

function piecesOf(text: string): AnswerPiece[] {
  const pieces: AnswerPiece[] = [];
  let from = 0;
  for (const match of text.matchAll(MARK)) {
    if (match.index > from) {
      pieces.push({ kind: 'text', at: from, text: text.slice(from, match.index) });
    }
    pieces.push({ kind: 'mark', at: match.index, chunkId: match[1] ?? '' });
    from = match.index + match[0].length;
  }
  if (from < text.length) pieces.push({ kind: 'text', at: from, text: text.slice(from) });
  return pieces;
}

/**
 * The number each cited passage goes by, in the order the answer first cites it: the server lists
 * the citations in that order, so a mark streamed before the list arrives already has its number.
 */
export function citationNumbers(paragraphs: readonly AnswerParagraph[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const paragraph of paragraphs) {
    for (const piece of paragraph.pieces) {
      if (piece.kind === 'mark' && !numbers.has(piece.chunkId)) {
        numbers.set(piece.chunkId, numbers.size + 1);
      }
    }
  }
  return numbers;
}

export type AnswerKind = 'unanswered' | ChatMode;

/**
 * What the page labels an answer: not answered, extracts from the sources (no AI provider
 * configured), or AI-generated. The server says which in `mode`
 * (docs/decisions/0066-ai-provider-guard-and-chat.md).
 */
export function answerKind(answer: Pick<ChatResponse, 'answered' | 'mode'>): AnswerKind {
  return answer.answered ? answer.mode : 'unanswered';
}

/** "3 lines", "1 line". */
export const lineCount = (count: number) => counted(count, 'line');

/**
 * What the comparison before approval says: the text in the editor (saved or not) against the
 * text the draft was generated with, which is what the approval will record.
 */
export function changesFromGenerated({
  added,
  removed,
  unsaved,
}: {
  added: number;
  removed: number;
  unsaved: boolean;
}): string {
  const recorded = 'What changed is recorded when the draft is approved.';
  if (added === 0 && removed === 0) {
    return unsaved
      ? `With your unsaved changes the text is as generated again: no line differs. ${recorded}`
      : `As generated: no line has been changed. ${recorded}`;
  }
  const counts = `${lineCount(removed)} removed and ${lineCount(added)} added`;
  return unsaved
    ? `Changed from the generated text, your unsaved changes included: ${counts}. ${recorded}`
    : `Changed from the generated text: ${counts}. ${recorded}`;
}
