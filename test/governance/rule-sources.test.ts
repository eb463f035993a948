import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AE_REASONS,
  AE_RULES,
  type AeReason,
  reasonSource,
} from '../../src/contracts/auto-enrolment-rules.js';
import {
  assessScheme,
  GOVERNANCE_RULES,
  type SchemeGovernanceFacts,
} from '../../src/contracts/governance-rules.js';
import { SCHEME_TYPES } from '../../src/contracts/organisation.js';
import {
  inRetirementAgeWindow,
  RETIREMENT_AGE_RULES,
} from '../../src/contracts/retirement-age-rules.js';
import {
  guidance,
  law,
  lawInProse,
  namesAProvision,
  productPolicy,
  RULE_LABEL_NAMES,
  RULE_LABELS,
  type RuleSource,
  sourceInWords,
  sourcesInWords,
} from '../../src/contracts/rule-sources.js';

/**
 * Every rule of the rule modules carries a label (law, guidance or product policy) and, where it
 * is law, a citation that names its section, regulation, article or schedule
 * (docs/decisions/0120-rules-labelled-law-guidance-policy.md; docs/decisions/0059-governance-rules.md).
 * The rule modules are found by name, src/contracts/*-rules.ts, so a new one is held to this
 * without being listed here.
 */

const root = path.resolve(import.meta.dirname, '../..');
const contracts = path.join(root, 'src/contracts');

const RULE_MODULES = readdirSync(contracts)
  .filter((name) => name.endsWith('-rules.ts'))
  .sort();

/** A module's tables of rules: its exports named …_RULES. */
async function rulesOf(file: string): Promise<Array<[string, unknown]>> {
  const module = (await import(path.join(contracts, file))) as Record<string, unknown>;
  return Object.entries(module)
    .filter(([name]) => name.endsWith('_RULES'))
    .flatMap(([table, rules]) =>
      Object.entries(rules as Record<string, unknown>).map(
        ([name, rule]) => [`${table}.${name}`, rule] as [string, unknown],
      ),
    );
}

const isSource = (value: unknown): value is RuleSource =>
  typeof value === 'object' &&
  value !== null &&
  RULE_LABELS.includes((value as RuleSource).label) &&
  typeof (value as RuleSource).citation === 'string' &&
  (value as RuleSource).citation.trim().length > 0;

/**
 * Words about the people who built the service rather than to the trustee who reads the citation
 * beside a duty: the governance tab once showed "the project has not checked the provision", and
 * later "the provision that requires it is not cited here" and "whether it is submitted is
 * unconfirmed".
 */
const BUILDERS_WORDS =
  /\b(?:the project|not (?:been )?checked|not cited here|unconfirmed|to do|TODO|FIXME)\b/i;

/** Why a source fails the rule, or null when it holds. */
function problemOf(value: unknown): string | null {
  if (!isSource(value)) return 'has no label and citation';
  if (BUILDERS_WORDS.test(value.citation)) {
    return `speaks of the service's builders, not to its reader: ${value.citation}`;
  }
  if (value.label === 'law' && !namesAProvision(value.citation)) {
    return `is law but its citation names no section, regulation, article or schedule: ${value.citation}`;
  }
  if (value.label !== 'law' && namesAProvision(value.citation)) {
    return `is ${value.label} but its citation names a provision, as if it were the law's: ${value.citation}`;
  }
  return null;
}

describe('a provision named in a citation', () => {
  it('is a section, regulation, article or schedule, not an instrument alone', () => {
    for (const cited of [
      'Pensions Act 1990 s.64AC(1)–(2)',
      'S.I. No. 128/2021 reg. 3',
      'Directive (EU) 2016/2341 Art. 28(2)',
      'S.I. No. 637 of 2025, art. 4A and Sch. 1A',
      'Automatic Enrolment Retirement Savings System Act 2024 s.51',
    ]) {
      expect(namesAProvision(cited), cited).toBe(true);
    }
    for (const bare of [
      'Automatic Enrolment Retirement Savings System Act 2024',
      'Pensions Act 1990 as amended by S.I. No. 128/2021',
      'Directive (EU) 2016/2341',
      'the Pensions Authority expects this',
    ]) {
      expect(namesAProvision(bare), bare).toBe(false);
    }
  });

  it('is shown with its label in words', () => {
    expect(RULE_LABEL_NAMES).toEqual({
      law: 'Law',
      guidance: 'Guidance',
      product_policy: 'Product policy',
    });
    expect(sourceInWords(GOVERNANCE_RULES.trustees)).toBe('Law: Pensions Act 1990 s.64AC(1)–(2)');
  });
});

describe('every rule of the rule modules', () => {
  it('is found in each src/contracts/*-rules.ts', async () => {
    expect(RULE_MODULES).toEqual(
      expect.arrayContaining([
        'auto-enrolment-rules.ts',
        'governance-rules.ts',
        'retirement-age-rules.ts',
      ]),
    );
    for (const file of RULE_MODULES) {
      expect((await rulesOf(file)).length, `${file} exports no …_RULES table`).toBeGreaterThan(0);
    }
  });

  it('carries a label, and a citation to its provision where it is law', async () => {
    const problems: string[] = [];
    let counted = 0;
    for (const file of RULE_MODULES) {
      for (const [name, rule] of await rulesOf(file)) {
        counted += 1;
        const problem = problemOf(rule);
        if (problem) problems.push(`${file} ${name} ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect(counted).toBeGreaterThanOrEqual(
      Object.keys(GOVERNANCE_RULES).length + Object.keys(AE_RULES).length + SCHEME_TYPES.length,
    );
  });

  it('finds a rule without a label, or law cited to an instrument alone', () => {
    expect(problemOf({ citation: 'Pensions Act 1990 s.64AC' })).toContain('no label');
    expect(
      problemOf({
        label: 'law',
        citation: 'Automatic Enrolment Retirement Savings System Act 2024',
      }),
    ).toContain('names no section');
    expect(
      problemOf({ label: 'product_policy', citation: 'Pensions Act 1990 s.64AL(3)' }),
    ).toContain('as if it were the law');
    expect(
      problemOf({
        label: 'guidance',
        citation: 'A return; the project has not checked the provision that requires it',
      }),
    ).toContain("the service's builders");
  });

  it('cites the trustee rule to s.64AC as law, not to the Directive or the Authority’s expectation', () => {
    expect(GOVERNANCE_RULES.trustees).toEqual({
      label: 'law',
      citation: 'Pensions Act 1990 s.64AC(1)–(2)',
    });
    const all = JSON.stringify([GOVERNANCE_RULES, AE_RULES, RETIREMENT_AGE_RULES]);
    expect(all).not.toContain('Art. 21(4)');
    expect(all).not.toMatch(/Authority expects/i);
    expect(all).not.toContain('S.I. No. 668 of 2025, Schedule 1A');
  });
});

describe('the sources the rules hand on', () => {
  const facts = (type: SchemeGovernanceFacts['type']): SchemeGovernanceFacts => ({
    type,
    racKind: type === 'RAC' ? 'trust' : null,
    trustees: [],
    keyFunctionHolders: [],
    policies: [],
    oraReports: [],
    significantChanges: [],
  });

  it('label every obligation of every scheme type, and cite the law to its provision', () => {
    for (const type of SCHEME_TYPES) {
      for (const obligation of assessScheme(facts(type), '2026-06-01').obligations) {
        expect(problemOf(obligation), `${type} ${obligation.kind}`).toBeNull();
      }
    }
  });

  it('label every reason of the auto-enrolment assessment', () => {
    for (const reason of Object.keys(AE_REASONS) as AeReason[]) {
      expect(problemOf(reasonSource(reason)), reason).toBeNull();
    }
  });
});

describe('the retirement age window', () => {
  it('lives in the rule module with its source, and a PRSA has no upper age', () => {
    expect(RETIREMENT_AGE_RULES.PRSA).toMatchObject({ from: 60, to: null, label: 'guidance' });
    expect(RETIREMENT_AGE_RULES.PRSA.citation).toContain('Pensions Authority');
    expect(inRetirementAgeWindow('PRSA', 59)).toBe(false);
    expect(inRetirementAgeWindow('PRSA', 60)).toBe(true);
    expect(inRetirementAgeWindow('PRSA', 80)).toBe(true);
    expect(inRetirementAgeWindow('RAC', 75)).toBe(true);
    expect(inRetirementAgeWindow('RAC', 76)).toBe(false);
    expect(inRetirementAgeWindow('DC', 71)).toBe(false);
  });

  it('is written nowhere else: no code or corpus text gives a PRSA an age of 75', () => {
    const files = [
      ...filesUnder('src', /\.tsx?$/).filter((file) => !file.endsWith('retirement-age-rules.ts')),
      ...filesUnder('corpus', /\.md$/),
    ];
    const found = files.filter((file) => {
      const text = readFileSync(path.join(root, file), 'utf8');
      return /PRSA/.test(text) && /\b75\b/.test(text);
    });
    expect(found).toEqual([]);
  });
});

describe('the web UI', () => {
  it('restates no rule: no provision, period or figure of a rule is written in its governance and auto-enrolment pages', () => {
    const restated = [
      ...filesUnder('src/web/pages/governance', /\.tsx?$/),
      ...filesUnder('src/web/pages/auto-enrolment', /\.tsx?$/),
    ]
      .filter((file) => !file.includes('.test.'))
      .flatMap((file) =>
        withoutComments(readFileSync(path.join(root, file), 'utf8'))
          .split('\n')
          .filter((line) =>
            /s\.\d|Art\. \d|reg\. \d|Sch\. \d|[Ss]ection \d|Article \d|without delay|at once|three years|€\d|\d%/.test(
              line,
            ),
          )
          .map((line) => `${file}: ${line.trim()}`),
      );
    expect(restated).toEqual([]);
  });
});

/** Files under a folder of the repository whose names match, by their path from the root. */
function filesUnder(folder: string, name: RegExp): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && name.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

describe('several sources cited together', () => {
  it('name each instrument once, its provisions joined, in the order first given', () => {
    expect(
      sourcesInWords([AE_RULES.eligibility, AE_RULES.exemptEmployment, AE_RULES.minimumStandard]),
    ).toEqual([
      'Law: Automatic Enrolment Retirement Savings System Act 2024 s.50(2)–(3) and s.51',
      `Law: ${AE_RULES.minimumStandard.citation}`,
    ]);
    expect(
      sourcesInWords([
        law('Pensions Act 1990 s.64AC(1)–(2)'),
        productPolicy('Pay is read over three months'),
        law('Pensions Act 1990 s.59AA'),
        law('Pensions Act 1990 s.64AC(1)–(2)'),
        law('Pensions Act 1990 s.64AL(3)'),
      ]),
    ).toEqual([
      'Law: Pensions Act 1990 s.64AC(1)–(2), s.59AA and s.64AL(3)',
      'Product policy: Pay is read over three months',
    ]);
  });

  it('names no provision again that a range beside it already holds, and says the law in prose', () => {
    const sources = [
      law('S.I. No. 128/2021 reg. 31 to reg. 35'),
      law('S.I. No. 128/2021 reg. 35'),
      law('S.I. No. 128/2021 reg. 34(4)'),
    ];
    expect(sourcesInWords(sources)).toEqual(['Law: S.I. No. 128/2021 reg. 31 to reg. 35']);
    expect(sourcesInWords([sources[1] as RuleSource, sources[0] as RuleSource])).toEqual([
      'Law: S.I. No. 128/2021 reg. 31 to reg. 35',
    ]);
    expect(lawInProse(sources)).toBe('S.I. No. 128/2021, regulations 31 to 35');
    expect(
      lawInProse([
        law('Pensions Act 1990 s.64AC(1)–(2)'),
        guidance('the Pensions Authority’s guidance'),
        law('Pensions Act 1990 s.59AA'),
        law('S.I. No. 128/2021 reg. 36'),
      ]),
    ).toBe(
      'Pensions Act 1990, section 64AC(1)–(2) and section 59AA and S.I. No. 128/2021, regulation 36',
    );
  });
});

/** Source text without its comments: a rule may be cited in a comment, never restated in code. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}
