import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { MEMBER_COLUMNS } from '../../src/contracts/imports.js';
import * as memberFields from '../../src/contracts/members.js';
import * as pagination from '../../src/contracts/pages.js';
import * as passwords from '../../src/contracts/passwords.js';
import * as text from '../../src/contracts/text.js';
import { BODY_LIMIT_BYTES } from '../../src/server/app.js';
import { inspectOutgoing } from '../../src/server/modules/ai/provider-guard.rules.js';
import * as audit from '../../src/server/modules/audit/audit.schemas.js';
import * as brokers from '../../src/server/modules/brokers/brokers.schemas.js';
import * as contributions from '../../src/server/modules/contributions/contributions.schemas.js';
import * as payroll from '../../src/server/modules/contributions/payroll-grid.schemas.js';
import * as employers from '../../src/server/modules/employers/employers.schemas.js';
import * as funds from '../../src/server/modules/funds/funds.schemas.js';
import { createContributionRows } from '../../src/server/modules/imports/contribution-rows.rules.js';
import * as imports from '../../src/server/modules/imports/imports.schemas.js';
import { createMemberRows } from '../../src/server/modules/imports/member-rows.rules.js';
import * as members from '../../src/server/modules/members/members.schemas.js';
import * as portal from '../../src/server/modules/portal/portal.schemas.js';
import { chunkDocument } from '../../src/server/modules/rag/chunking.rules.js';
import * as schemes from '../../src/server/modules/schemes/schemes.schemas.js';
import * as users from '../../src/server/modules/users/users.schemas.js';
import {
  classifyTarget,
  PLAIN_PATH,
  REPEATED_SLASHES,
} from '../../src/server/platform/http/api-paths.js';
import { loggableUrl, MAX_LOGGED_TEXT, scrubText } from '../../src/server/platform/http/logger.js';
import { readHeadings } from '../../src/server/platform/uploads/csv-columns.js';
import { MAX_UPLOAD_BYTES } from '../../src/server/platform/uploads/csv-upload.js';
import {
  parseCsvDate,
  parseEuroCents,
  parsePeriod,
  parseWholeCents,
} from '../../src/server/platform/uploads/csv-values.js';
import { createRowIdSource } from '../../src/server/platform/uploads/row-ids.js';
import { MEMBER_HEADINGS } from '../helpers/imports.js';
import { testPpsKeyring } from '../helpers/pps.js';

/**
 * No pattern that user text reaches may cost more than linear time
 * (docs/decisions/0034-linear-patterns.md). Timing a pattern on a loaded machine proves little, so
 * the property is stated without a clock: fed the worst case at the body limit (1 MiB; 25 MiB for a
 * CSV cell), no pattern able to backtrack (one with a quantifier) ever runs on more than a field
 * can hold. Patterns of a single character class or literal run in one pass whatever the length,
 * and may see the whole text. The pattern that took half an hour at 1 MiB, the e-mail rule's, ran
 * on the whole value.
 */

/** Longer than any text field of the API (an address or a reason: 500). */
const LONGEST_FIELD = 1_000;

/** What a log line keeps of a text: the cut, and the mark that says it was cut. */
const LOGGED_TEXT = MAX_LOGGED_TEXT + '…[truncated]'.length;

/** True for a pattern without quantifiers: a character class or a literal, matched in one pass. */
function matchesInOnePass(pattern: RegExp): boolean {
  const withoutEscapes = pattern.source.replace(/\\[pPu]\{[^}]*\}|\\./g, 'x');
  // Inside a character class `?`, `*`, `+` and `{` are plain characters.
  const withoutClasses = withoutEscapes.replace(/\[[^\]]*\]/g, 'x');
  return !/[*+?{]/.test(withoutClasses);
}

interface Run {
  source: string;
  length: number;
}

/**
 * What `work` asked patterns to match beyond the longest field. Such a pattern is recorded and
 * answered "no match" instead of being run: the quadratic one would block the test for minutes.
 * Every regular-expression method (test, exec, replace, match, split, search) goes through exec.
 */
function longPatternRuns(work: () => void, longest = LONGEST_FIELD): Run[] {
  const original = RegExp.prototype.exec;
  const runs: Run[] = [];
  RegExp.prototype.exec = function exec(this: RegExp, input: string) {
    const value = String(input);
    if (value.length > longest && !matchesInOnePass(this)) {
      runs.push({ source: this.source, length: value.length });
      return null;
    }
    return original.call(this, value);
  };
  try {
    work();
  } finally {
    RegExp.prototype.exec = original;
  }
  return runs;
}

/** The worst cases of the patterns in use, each `size` characters long. */
function worstCases(size: number): Record<string, string> {
  return {
    // The e-mail pattern's: dots both of its quantifiers could take, and no end.
    'a@ and dots': `a@${'.'.repeat(size - 3)}@`,
    'digit groups': `${'1,000'.repeat(Math.floor(size / 5) - 1)}x`,
    'white space': `${' '.repeat(size - 1)}x`,
    'letters and a NUL': `${'a'.repeat(size - 1)}\u0000`,
  };
}

type AnySchema = z.ZodType & { _zod: { def: Record<string, unknown> & { type: string } } };

/** Paths to every string a request schema reads, through objects, arrays, optionals and pipes. */
function stringPaths(
  schema: AnySchema,
  path: Array<string | number> = [],
): Array<Array<string | number>> {
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
      return [path];
    case 'object':
      return Object.entries(def.shape as Record<string, AnySchema>).flatMap(([key, field]) =>
        stringPaths(field, [...path, key]),
      );
    case 'array':
      return stringPaths(def.element as AnySchema, [...path, 0]);
    case 'optional':
    case 'nullable':
    case 'default':
      return stringPaths(def.innerType as AnySchema, path);
    case 'pipe':
      return stringPaths(def.in as AnySchema, path);
    default:
      return [];
  }
}

function withValueAt(path: Array<string | number>, value: string): unknown {
  return path.reduceRight<unknown>(
    (inner, key) => (typeof key === 'number' ? [inner] : { [key]: inner }),
    value,
  );
}

/** Every Zod schema the API's request rules are made of, by module and export name. */
const SCHEMA_MODULES: Record<string, Record<string, unknown>> = {
  audit,
  brokers,
  contributions,
  employers,
  funds,
  imports,
  memberFields,
  members,
  pagination,
  passwords,
  payroll,
  portal,
  schemes,
  text,
  users,
};

const requestSchemas = Object.entries(SCHEMA_MODULES).flatMap(([module, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => typeof (value as AnySchema)?._zod?.def?.type === 'string')
    .flatMap(([name, schema]) =>
      stringPaths(schema as AnySchema).map((path) => ({
        name: `${module}.${name}${path.length > 0 ? `.${path.join('.')}` : ''}`,
        schema: schema as AnySchema,
        path,
      })),
    ),
);

describe('patterns on user text, fed the worst case at the body limit', () => {
  it('cover every string of every request schema, the e-mail rules among them', () => {
    const names = requestSchemas.map(({ name }) => name);
    for (const field of [
      'users.brokerUserInput.email',
      'users.employerUserInput.email',
      'members.memberInput.email',
      'memberFields.memberEmail',
      'funds.fundChoiceInput.allocations.0.fundId',
      'audit.auditQuery.from',
      'pagination.pageQuery.cursor',
    ]) {
      expect(names, field).toContain(field);
    }
    expect(requestSchemas.length).toBeGreaterThan(60);
  });

  it('never run on more than a field can hold, in any request schema (1 MiB values)', () => {
    const found: Array<Run & { field: string; input: string }> = [];
    for (const [input, value] of Object.entries(worstCases(BODY_LIMIT_BYTES))) {
      for (const { name, schema, path } of requestSchemas) {
        const runs = longPatternRuns(() => schema.safeParse(withValueAt(path, value)));
        found.push(...runs.map((run) => ({ ...run, field: name, input })));
      }
    }
    expect(found).toEqual([]);
  });

  it('refuse a 1 MiB e-mail address by its length, with the one issue that says so', () => {
    const value = worstCases(BODY_LIMIT_BYTES)['a@ and dots'] as string;
    const result = users.brokerUserInput.safeParse({ email: value, name: 'x', role: 'BrokerUser' });
    expect(result.error?.issues.filter((issue) => issue.path[0] === 'email')).toEqual([
      expect.objectContaining({ code: 'too_big' }),
    ]);
  });

  it('never run on more than a field can hold in a CSV row (25 MiB cells, every column)', () => {
    const scope = {
      importId: 'import',
      brokerId: 'broker',
      employerId: 'employer',
      schemeId: 'scheme',
      schemeName: 'Acme Staff Pension Scheme',
      userId: 'user',
      at: new Date('2026-01-15T00:00:00Z'),
    };
    const deps = { ppsKeyring: testPpsKeyring, nextId: createRowIdSource() };
    const contributionHeadings = [
      'PPSN',
      'Member ID',
      'Period',
      'Employee',
      'Employer',
      'AVC',
      'Arrangement',
    ];
    const found: Array<Run & { cell: string; input: string }> = [];
    for (const [input, value] of Object.entries(worstCases(MAX_UPLOAD_BYTES))) {
      const record = (cell: string, work: () => void) =>
        found.push(...longPatternRuns(work).map((run) => ({ ...run, cell, input })));
      for (const [index, heading] of MEMBER_HEADINGS.entries()) {
        const reader = createMemberRows(scope, deps);
        reader.readHeader([...MEMBER_HEADINGS], 1);
        const cells = MEMBER_HEADINGS.map((_, at) => (at === index ? value : ''));
        record(`members ${heading}`, () => reader.readRow(cells, 2));
      }
      for (const [index, heading] of contributionHeadings.entries()) {
        const reader = createContributionRows(scope, deps);
        reader.readHeader(contributionHeadings, 1);
        const cells = contributionHeadings.map((_, at) => (at === index ? value : '2026-01'));
        record(`contributions ${heading}`, () => reader.readRow(cells, 2));
      }
      record('a heading', () => readHeadings([value, 'PPSN'], 1, MEMBER_COLUMNS));
      record('an amount', () => parseEuroCents(value));
      record('whole cents', () => parseWholeCents(value));
      record('a date', () => parseCsvDate(value));
      record('a period', () => parsePeriod(value));
    }
    expect(found).toEqual([]);
  });

  it('never run on more than a log line keeps, whatever text is logged (1 MiB)', () => {
    const found: Array<Run & { input: string }> = [];
    for (const [input, value] of Object.entries(worstCases(BODY_LIMIT_BYTES))) {
      const runs = longPatternRuns(() => {
        scrubText(value);
        loggableUrl(`/api/${value}?q=${value}`);
      }, LOGGED_TEXT);
      found.push(...runs.map((run) => ({ ...run, input })));
    }
    expect(found).toEqual([]);
  });

  it('never run on more than a field can hold when a request path is classified (the longest URL Node reads)', () => {
    // Node refuses request heads over 16 KiB, which bounds a URL; past that bound a quadratic
    // pattern still cost 345 ms a request (a segment of 16,000 dots, then anything else).
    const size = 16 * 1024;
    const reviewedAsLinear = new Set([PLAIN_PATH.source, REPEATED_SLASHES.source]);
    const found: Array<Run & { target: string }> = [];
    for (const [input, value] of Object.entries(worstCases(size - 32))) {
      for (const target of [`/api/${value}%2e`, `http://h/api/${value}x%2e`, `/${value}`]) {
        const runs = longPatternRuns(() => classifyTarget(target));
        found.push(
          ...runs
            .filter((run) => !reviewedAsLinear.has(run.source))
            .map((run) => ({ ...run, target: `${input}: ${target.slice(0, 12)}…` })),
        );
      }
    }
    expect(found).toEqual([]);
  });

  it('the AI guard and the corpus chunker run no backtracking pattern on more than a field, given 1 MiB', () => {
    // The guard reads every question and every request to the provider; the chunker reads what
    // ingest is sent (public text, but from a bearer holder). Both split text into short tokens
    // or lines before any quantified pattern sees it.
    const shapes = ['eyJ', 'a'.repeat(50), '@', '1234567', 'sk-', '€1,000,', '.', 'x@y.', ',', ' '];
    const cases = {
      ...worstCases(BODY_LIMIT_BYTES),
      'the guard’s shapes': Array.from(
        { length: 120_000 },
        (_, index) => shapes[index % shapes.length],
      ).join(''),
    };
    const denylist = { names: ['a b'], datesOfBirth: ['1985-04-12'], salaryCents: [100] };
    // Line endings made plain: one optional character after a literal, nothing to backtrack into.
    const reviewedAsLinear = new Set([/\r\n?/.source]);
    const found: Array<Run & { input: string }> = [];
    for (const [input, value] of Object.entries(cases)) {
      const body = JSON.stringify({ messages: [{ role: 'user', content: value }] });
      for (const run of longPatternRuns(() => inspectOutgoing(body, denylist, ['s3cret-value']))) {
        found.push({ ...run, input: `guard: ${input}` });
      }
      for (const format of ['text', 'markdown', 'html'] as const) {
        const runs = longPatternRuns(() => chunkDocument({ title: 'Act', format, content: value }));
        found.push(
          ...runs
            .filter((run) => !reviewedAsLinear.has(run.source))
            .map((run) => ({ ...run, input: `chunker (${format}): ${input}` })),
        );
      }
    }
    expect(found).toEqual([]);
  });

  it('the watcher is not blind: it reports the e-mail pattern of before when it meets 1 MiB', () => {
    const before = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
    const value = worstCases(BODY_LIMIT_BYTES)['a@ and dots'] as string;
    expect(longPatternRuns(() => before.test(value))).toEqual([
      { source: before.source, length: value.length },
    ]);
    expect(matchesInOnePass(/[\uD800-\uDBFF]/)).toBe(true);
    expect(matchesInOnePass(/\p{Surrogate}/u)).toBe(true);
    expect(matchesInOnePass(text.EMAIL_PATTERN)).toBe(false);
    expect(matchesInOnePass(/[?#]/)).toBe(true);
    expect(matchesInOnePass(/[?#]+/)).toBe(false);
  });

  it('the e-mail pattern accepts addresses in any script and refuses empty labels', () => {
    for (const address of ['a@b.ie', 'seán@gmaíl.ie', 'mary.o+pension@mail.example.ie']) {
      expect(text.EMAIL_PATTERN.test(address), address).toBe(true);
    }
    for (const address of ['a@b', 'a@.b.ie', 'a@b..ie', 'a@b.ie.', 'a b@c.ie', 'a@b@c.ie']) {
      expect(text.EMAIL_PATTERN.test(address), address).toBe(false);
    }
  });
});
