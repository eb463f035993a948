import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AE_STATUS_LABELS } from '../../src/contracts/auto-enrolment-rules.js';
import {
  CONTRIBUTION_KIND_LABELS,
  CONTRIBUTION_KIND_LABELS_FOR_MEMBER,
} from '../../src/contracts/contributions.js';
import { POLICY_STATUS_NAMES } from '../../src/contracts/governance.js';
import {
  FITNESS_NAMES,
  OBLIGATION_NAMES,
  OBLIGATION_STATUS_LABELS,
  ORA_TRIGGER_NAMES,
  TRUSTEE_KIND_NAMES,
} from '../../src/contracts/governance-rules.js';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * Rules the browser and the service both apply live once, in src/contracts, as code
 * (docs/decisions/0104-one-line-diff.md, 0105-shared-words-and-shapes.md): the line diff a
 * reviewer reads and the approval records, the telemetry scrubber, the audit record's type, and
 * the words for statuses and kinds. A copy drifts: the server's diff once recorded a reordering as
 * no change while the page showed it. These scans keep the copies from growing back.
 */

const root = path.resolve(import.meta.dirname, '../..');

/** The source files under a folder of src, tests left out, by their path from the repository root. */
const sources = (folder: string) => sourceFiles(folder, '.');

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/**
 * A declaration, at the start of a line, of a function (or a variable holding one), a class, an
 * interface or a type whose name matches `name`: what a copy of a rule is made of. A variable
 * holding a value (`const diff = …`) or an import (`import { type DiffLine }`) is no copy.
 */
const declaring = (name: string) =>
  new RegExp(
    String.raw`^[ \t]*(?:export[ \t]+)?(?:(?:async[ \t]+)?function\*?[ \t]+N\b|(?:const|let|var)[ \t]+N[ \t]*(?::[^=\n]+)?=[ \t]*(?:async[ \t]*)?(?:\(|function\b|\w+[ \t]*=>)|class[ \t]+N\b|(?:interface|type)[ \t]+N[ \t]*(?:=|<|\{|extends\b))`.replaceAll(
      'N',
      () => name,
    ),
    'm',
  );

/** Something about diffing lines. */
const DECLARES_A_DIFF = declaring(String.raw`\w*(?:[dD]iff|DIFF|[lL]cs|LCS|[eE]ditScript)\w*`);
/** The list of keys a scrubber removes. */
const DECLARES_REMOVED_KEYS =
  /^[ \t]*(?:export[ \t]+)?(?:const|let|var)[ \t]+\w*(?:REMOVED|SENSITIVE)_KEYS\b/m;
/** Something about scrubbing or redacting, or the list of keys a scrubber removes. */
const DECLARES_A_SCRUBBER = new RegExp(
  `${declaring(String.raw`\w*(?:[sS]crub|SCRUB|[rR]edact|REDACT)\w*`).source}|${DECLARES_REMOVED_KEYS.source}`,
  'm',
);
/** The scrubber's own marks: its mask and the PPS number's seven digits. */
const SCRUBBER_PARTS = /\[Filtered\]|\[0-9\]\{7\}|\\d\{7\}/;
/** An API answer's shape declared in the UI instead of taken from its schema in src/contracts. */
const DECLARES_AN_ANSWER =
  /^[ \t]*(?:export[ \t]+)?(?:interface|type)[ \t]+(?:\w+View|AuditRecord)[ \t]*(?:=|<|\{|extends\b)/m;

/** The one declaration that may match: the SDK's hook, which calls the shared scrubber. */
const SCRUBBER_HOOK = { file: 'src/web/telemetry.ts', declaration: 'function scrubEvent' };

describe('rules shared by the web UI and the service', () => {
  it('the scanner finds the declarations the copies were made of', () => {
    // The web's own diff and the server's, and the two scrubbers, as they were.
    expect(DECLARES_A_DIFF.test('export function diffLines(before: string, after: string)')).toBe(
      true,
    );
    expect(DECLARES_A_DIFF.test('export interface LineDiff {')).toBe(true);
    expect(DECLARES_A_DIFF.test('function lcsLength(a: string[], b: string[])')).toBe(true);
    expect(DECLARES_A_DIFF.test('  const sameLines = (a: string, b: string) => a === b;')).toBe(
      false,
    );
    expect(DECLARES_A_DIFF.test('const diffOf = (a: string, b: string) => [];')).toBe(true);
    // Values and imports are no copies of the rule.
    expect(DECLARES_A_DIFF.test('const different = a !== b;')).toBe(false);
    expect(DECLARES_A_DIFF.test('  const diff = row.approvedDiff as LineDiff | null;')).toBe(false);
    expect(DECLARES_A_DIFF.test("import { type DiffLine } from './line-diff';")).toBe(false);
    expect(DECLARES_A_SCRUBBER.test('  const scrubbed = scrubTelemetry(rest) as T;')).toBe(false);
    expect(DECLARES_A_SCRUBBER.test('function scrubValue(value: unknown, depth: number)')).toBe(
      true,
    );
    expect(DECLARES_A_SCRUBBER.test('const REMOVED_KEYS = new Set([')).toBe(true);
    expect(SCRUBBER_PARTS.test("export const FILTERED = '[Filtered]';")).toBe(true);
    expect(SCRUBBER_PARTS.test('/(?<![A-Za-z0-9])[0-9]{7}[A-Wa-w]/g')).toBe(true);
    expect(DECLARES_AN_ANSWER.test('interface AuditRecordView {')).toBe(true);
    expect(DECLARES_AN_ANSWER.test('  type DocumentLinkView,')).toBe(false);
    expect(DECLARES_AN_ANSWER.test('export type AuditRecord = AuditRecordView;')).toBe(true);
  });

  it('the web UI declares no line diff of its own, and the draft page compares with the shared one', () => {
    const found = sources('src/web')
      .filter(({ text }) => DECLARES_A_DIFF.test(text))
      .map(({ file }) => file);
    expect(found).toEqual([]);
    expect(read('src/web/pages/ai/DraftPage.tsx')).toMatch(
      /import \{[^}]*\bdiffLines\b[^}]*\} from '\.\.\/\.\.\/\.\.\/contracts\/line-diff'/,
    );
  });

  it('the service records approvals with the same diff, and declares none of its own', () => {
    const found = sources('src/server')
      .filter(({ text }) => DECLARES_A_DIFF.test(text))
      .map(({ file }) => file);
    expect(found).toEqual([]);
    expect(read('src/server/modules/ai/drafts.service.ts')).toMatch(
      /import \{[^}]*\blineDiff\b[^}]*\} from '\.\.\/\.\.\/\.\.\/contracts\/line-diff\.js'/,
    );
  });

  it('the web UI declares no telemetry scrubber of its own: its hook hands the event to the shared one', () => {
    const found = sources('src/web').flatMap(({ file, text }) => {
      const hook = file === SCRUBBER_HOOK.file ? text.replace(SCRUBBER_HOOK.declaration, '') : text;
      return DECLARES_A_SCRUBBER.test(hook) || SCRUBBER_PARTS.test(hook) ? [file] : [];
    });
    expect(found).toEqual([]);
    const hook = read(SCRUBBER_HOOK.file);
    expect(hook).toMatch(/import \{ scrubTelemetry \} from '\.\.\/contracts\/telemetry-text'/);
    expect(hook).toMatch(/scrubTelemetry\(rest\)/);
  });

  it('the telemetry tunnel scrubs with the shared scrubber and declares none of its own', () => {
    const tunnel = read('src/server/platform/http/telemetry-tunnel.ts');
    expect(DECLARES_A_SCRUBBER.test(tunnel) || SCRUBBER_PARTS.test(tunnel)).toBe(false);
    expect(tunnel).toMatch(
      /import \{ scrubTelemetry \} from '\.\.\/\.\.\/\.\.\/contracts\/telemetry-text\.js'/,
    );
  });

  it('the web UI takes the shapes of API answers, the audit record among them, from src/contracts', () => {
    const found = sources('src/web')
      .filter(({ file, text }) => file !== 'src/web/api/types.ts' && DECLARES_AN_ANSWER.test(text))
      .map(({ file }) => file);
    expect(found).toEqual([]);
    expect(read('src/web/api/types.ts')).toMatch(
      /import type \{ AuditRecordView \} from '\.\.\/\.\.\/contracts\/audit'/,
    );
  });

  it('no page, PDF or export outside src/contracts spells out the words of a status or kind', () => {
    // OBLIGATION_NAMES is looked for by its keys below: its words also name the registers and
    // their fields ("Trustees", "Fitness and probity"), which pages rightly spell as headings.
    const vocabularies: Record<string, Readonly<Record<string, string>>> = {
      AE_STATUS_LABELS,
      CONTRIBUTION_KIND_LABELS,
      CONTRIBUTION_KIND_LABELS_FOR_MEMBER,
      POLICY_STATUS_NAMES,
      FITNESS_NAMES,
      OBLIGATION_STATUS_LABELS,
      ORA_TRIGGER_NAMES,
      TRUSTEE_KIND_NAMES,
    };
    const quoted = (words: string) =>
      new RegExp(`(['"\`])${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`);
    const found = [...sources('src/web'), ...sources('src/server')].flatMap(({ file, text }) =>
      Object.entries(vocabularies).flatMap(([name, words]) => {
        // Half of a map's words, and two at least, spelled in one file are a copy of the map; a
        // word or two of a long one may be a heading (a register's "Trustees" column).
        const spelled = Object.values(words).filter((word) => quoted(word).test(text));
        const copy = Math.max(2, Math.ceil(Object.keys(words).length / 2));
        return spelled.length >= copy ? [`${file}: ${name} (${spelled.join(', ')})`] : [];
      }),
    );
    expect(found).toEqual([]);
    const namesAnObligation = new RegExp(
      String.raw`\b(${Object.keys(OBLIGATION_NAMES).join('|')})\s*:\s*['"\x60]`,
      'g',
    );
    const namingObligations = [...sources('src/web'), ...sources('src/server')].flatMap(
      ({ file, text }) => {
        // `written_policy` alone is also a kind of draft and of document, with words of its own.
        const named = new Set([...text.matchAll(namesAnObligation)].map((match) => match[1]));
        return named.size >= 2 ? [`${file}: ${[...named].join(', ')}`] : [];
      },
    );
    expect(namingObligations).toEqual([]);
  });
});
