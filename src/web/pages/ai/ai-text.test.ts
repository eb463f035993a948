import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import {
  aiAnswerNote,
  aiProblem,
  answerKind,
  answerParagraphs,
  changesFromGenerated,
  citationNumbers,
  draftName,
  draftStanding,
  editable,
  extractsNote,
  fourEyesText,
  officialTextUrl,
  PERSONAL_DATA_ADVICE,
  placeholdersNote,
  SOURCE_KIND_NAMES,
  sourceKindNote,
  stepBlocked,
  usageShare,
} from './ai-text';

describe('the AI pages’ words and rules', () => {
  it('link only to web addresses, never to script or data', () => {
    expect(officialTextUrl('https://www.irishstatutebook.ie/eli/1990/act/25')).toBe(
      'https://www.irishstatutebook.ie/eli/1990/act/25',
    );
    expect(officialTextUrl('javascript:alert(1)')).toBeNull();
    expect(officialTextUrl('data:text/html,<script>')).toBeNull();
    expect(officialTextUrl('not a url')).toBeNull();
    expect(officialTextUrl(undefined)).toBeNull();
  });

  it('cut an answer into paragraphs, quotations and citation marks, all as text', () => {
    const answer =
      'Trustees must review it every three years [[chunk:c1]].\nAlso after a change [[chunk:c2]].\n\n> Quoted <b>line</b>\n> second line [[chunk:c1]]';
    const paragraphs = answerParagraphs(answer);
    expect(paragraphs.map((paragraph) => paragraph.quote)).toEqual([false, true]);
    expect(paragraphs[1]?.at).toBe(answer.indexOf('> Quoted'));
    const at = (text: string) => answer.indexOf(text);
    expect(paragraphs[0]?.pieces).toEqual([
      { kind: 'text', at: 0, text: 'Trustees must review it every three years ' },
      { kind: 'mark', at: at('[[chunk:c1]]'), chunkId: 'c1' },
      { kind: 'text', at: at('.\nAlso'), text: '.\nAlso after a change ' },
      { kind: 'mark', at: at('[[chunk:c2]]'), chunkId: 'c2' },
      { kind: 'text', at: at('.\n\n>'), text: '.' },
    ]);
    // The markup is a piece of text like any other, for React to escape.
    expect(paragraphs[1]?.pieces[0]).toEqual({
      kind: 'text',
      at: 0,
      text: 'Quoted <b>line</b>\nsecond line ',
    });
    expect([...citationNumbers(paragraphs)]).toEqual([
      ['c1', 1],
      ['c2', 2],
    ]);
  });

  it('call a summary a summary and a quotation a quotation, never a summary the law’s words', () => {
    const summary = { sourceKind: 'summary', title: 'Pensions Act 1990' } as const;
    const text = { sourceKind: 'text', title: 'Pensions Act 1990' } as const;
    expect(SOURCE_KIND_NAMES).toEqual({ summary: 'summary', text: 'quoted as written' });
    expect(sourceKindNote(summary)).toBe(
      'A summary written for this service in its own words, not the original text. Read the official text before relying on it.',
    );
    expect(sourceKindNote(text)).toBe(
      'Quoted as written from Pensions Act 1990, as the service holds it.',
    );
    // Extracts of summaries only are never said to be quoted as written.
    expect(extractsNote([summary, summary])).toMatch(
      /^Passages from summaries written for this service in its own words, not the original texts\./,
    );
    expect(extractsNote([summary])).not.toMatch(/quoted as written/i);
    expect(extractsNote([text])).toMatch(/^Passages quoted as written from the regulatory texts\./);
    expect(extractsNote([summary, text])).toMatch(
      /each says whether it is a summary in this service’s own words or quoted as written/,
    );
    expect(aiAnswerNote([text])).not.toMatch(/summar/);
    expect(aiAnswerNote([text, summary])).toMatch(
      /Sources marked as summaries were written for this service in its own words: they are not the original texts\.$/,
    );
  });

  it('say one true thing of an issued draft: a written policy is not in use until the trustees approve it', () => {
    const policy = draftStanding({ status: 'issued', kind: 'written_policy' });
    expect(policy).toBe(
      'Issued: the approved text is kept as a PDF among the scheme’s documents. The policy is a draft version in the scheme’s governance registers, not in use until the trustees approve it there.',
    );
    expect(policy).not.toMatch(/this text is in use/);
    expect(draftStanding({ status: 'issued', kind: 'ora_outline' })).toBe(
      'Issued: the approved text is kept as a PDF among the scheme’s documents.',
    );
    expect(draftStanding({ status: 'draft', kind: 'written_policy' })).toBe(
      'Read and edit the text, then mark it as reviewed.',
    );
  });

  it('keep a half-streamed mark as text until it is whole', () => {
    const pieces = answerParagraphs('Due every three years [[chunk:c')[0]?.pieces;
    expect(pieces).toEqual([{ kind: 'text', at: 0, text: 'Due every three years [[chunk:c' }]);
  });

  it('label an answer by the mode the server gives, never by its words', () => {
    const extracts = 'Pensions Act 1990, s. 59 [[chunk:c1]]\n> Trustees shall…';
    expect(answerKind({ answered: true, mode: 'extracts' })).toBe('extracts');
    // An AI answer that happens to read like the old extracts label is still an AI answer.
    expect(answerKind({ answered: true, mode: 'ai' })).toBe('ai');
    expect(answerKind({ answered: false, mode: 'ai' })).toBe('unanswered');
    expect(answerKind({ answered: false, mode: 'extracts' })).toBe('unanswered');
    // The source's line, then its quotation: two blocks of one paragraph.
    expect(
      answerParagraphs(extracts).map(({ quote, pieces }) => ({
        quote,
        text: pieces
          .map((piece) => (piece.kind === 'text' ? piece.text : `#${piece.chunkId}`))
          .join(''),
      })),
    ).toEqual([
      { quote: false, text: 'Pensions Act 1990, s. 59 #c1' },
      { quote: true, text: 'Trustees shall…' },
    ]);
  });

  it('compare the text being edited with the generated text before approval, saved or not', () => {
    expect(changesFromGenerated({ added: 0, removed: 0, unsaved: false })).toBe(
      'As generated: no line has been changed. What changed is recorded when the draft is approved.',
    );
    expect(changesFromGenerated({ added: 2, removed: 1, unsaved: false })).toBe(
      'Changed from the generated text: 1 line removed and 2 lines added. What changed is recorded when the draft is approved.',
    );
    expect(changesFromGenerated({ added: 1, removed: 1, unsaved: true })).toMatch(
      /^Changed from the generated text, your unsaved changes included: 1 line removed and 1 line added\./,
    );
    expect(changesFromGenerated({ added: 0, removed: 0, unsaved: true })).toMatch(
      /as generated again: no line differs/,
    );
  });

  it('say what failed in plain English: a provider down, a monthly limit, a busy minute', () => {
    expect(aiProblem(new ApiError(503, 'Service unavailable'))).toMatch(/not answering just now/);
    expect(aiProblem(new ApiError(429, 'The monthly AI request limit is reached'))).toMatch(
      /this month’s AI allowance/,
    );
    expect(aiProblem(new ApiError(429, 'Too many requests'))).toMatch(/wait a minute/);
    expect(PERSONAL_DATA_ADVICE).toMatch(
      /^Remove personal details such as PPS numbers or e-mail addresses/,
    );
  });

  it('name drafts, and allow edits only before approval', () => {
    expect(draftName({ kind: 'written_policy', policyKind: 'risk_management' })).toBe(
      'Risk management policy',
    );
    expect(draftName({ kind: 'ora_outline', policyKind: null })).toBe(
      'Own-risk assessment outline',
    );
    expect(
      ['draft', 'reviewed', 'approved', 'issued'].map((status) => editable(status as never)),
    ).toEqual([true, true, false, false]);
  });

  it('show the share of a monthly limit in whole percent, capped at 100', () => {
    expect(usageShare(0, 1000)).toBe(0);
    expect(usageShare(999, 1000)).toBe(99);
    expect(usageShare(1500, 1000)).toBe(100);
    expect(usageShare(0, 0)).toBe(0);
    expect(usageShare(1, 0)).toBe(100);
  });

  it('tell an author before they click that a colleague reviews and a third person approves', () => {
    const draft = {
      fourEyes: true,
      authors: ['generator', 'editor'],
      reviewedBy: null,
      content: 'DRAFT FROM TEMPLATE, filled in. Not approved: review it before use.\n\nDone.\n',
    };
    expect(stepBlocked('review', draft, 'editor')).toBe(
      'You generated or edited this draft. Four eyes: a draft is reviewed by someone who did not generate or edit it. Ask a colleague to review it.',
    );
    expect(stepBlocked('review', draft, 'colleague')).toBeNull();
    const reviewed = { ...draft, reviewedBy: 'colleague' };
    expect(stepBlocked('approve', reviewed, 'generator')).toMatch(
      /^You generated or edited this draft\. Four eyes: a draft is approved by someone who did not generate, edit or review it\./,
    );
    expect(stepBlocked('approve', reviewed, 'colleague')).toMatch(/^You reviewed this draft\./);
    expect(stepBlocked('approve', reviewed, 'third')).toBeNull();
    // With four eyes off the firm lets one person take every step.
    expect(stepBlocked('approve', { ...reviewed, fourEyes: false }, 'generator')).toBeNull();
  });

  it('name the placeholders left before approval, the banner aside, as the service refuses them', () => {
    const draft = {
      fourEyes: true,
      authors: ['generator'],
      reviewedBy: 'colleague',
      content: 'To: [name of the key function holder]\n\nFrom [date], signed: [name, date].\n',
    };
    expect(stepBlocked('approve', draft, 'third')).toBe(
      'Fill in the placeholders before approving: [name of the key function holder], [date], [name, date]. Edit the text, then have it reviewed again.',
    );
    // Four eyes are told first: the placeholders are not for this person to fill in.
    expect(stepBlocked('approve', draft, 'colleague')).toMatch(/^You reviewed this draft\./);
    expect(placeholdersNote('Approved on [date] by [name], [date].')).toEqual({
      left: ['[date]', '[name]'],
      note: 'Fill in each placeholder in square brackets before the draft is approved: 2 placeholders left.',
    });
    expect(placeholdersNote('Approved on 3 March 2026.').left).toEqual([]);
    // The banner goes at approval, whatever its line was edited to say.
    expect(
      placeholdersNote('DRAFT WRITTEN BY AI [checked]\n\nApproved on 3 March 2026.').left,
    ).toEqual([]);
    expect(placeholdersNote('[]  [unclosed\n]').left).toEqual([]);
  });

  it('count a placeholder however long it is, and quote a long one cut short', () => {
    // The own-risk assessment outline's own placeholder runs to 113 characters.
    const long =
      '[investment, operational, outsourcing, ICT and environmental, social and governance risks, and how they are managed]';
    const draft = {
      fourEyes: true,
      authors: ['generator'],
      reviewedBy: 'colleague',
      content: `Risks: ${long}.\nSigned [name].`,
    };
    expect(placeholdersNote(draft.content).left).toEqual([long, '[name]']);
    expect(stepBlocked('approve', draft, 'third')).toBe(
      `Fill in the placeholders before approving: ${long.slice(0, 78)}…], [name]. Edit the text, then have it reviewed again.`,
    );
  });

  it('say whether four eyes is on, and what it means, in words', () => {
    expect(fourEyesText(true).state).toBe('Four eyes is on');
    expect(fourEyesText(true).about).toMatch(/a third person, who neither wrote nor reviewed it/);
    expect(fourEyesText(false).state).toBe('Four eyes is off');
    expect(fourEyesText(false).about).toMatch(/^One person may generate, edit, review and approve/);
  });
});
