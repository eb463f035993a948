import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AE_RULES } from '../../src/contracts/auto-enrolment-rules.js';
import { GOVERNANCE_RULES } from '../../src/contracts/governance-rules.js';
import { sourceKindOf } from '../../src/contracts/rag.js';
import { namesAProvision, type RuleSource } from '../../src/contracts/rule-sources.js';
import { type Chunk, chunkDocument } from '../../src/server/modules/rag/chunking.rules.js';
import { readCorpus, SHIPPED_CORPUS_DIR } from '../../src/server/modules/rag/corpus-files.data.js';

/**
 * The starter corpus is written as the rule modules are (docs/decisions/0120-rules-labelled-law-
 * guidance-policy.md): every section opens with its label, law is cited to its section or
 * article, and no text is attributed to a provision unless a rule module cites that provision or
 * the manifest lists it as summarised without a rule. The chunks checked are the ones the
 * assistant cites, split as ingest splits them.
 */

interface ManifestEntry {
  source: string;
  title: string;
  url?: string;
  file: string;
  provisionsWithoutRule?: string[];
}

const manifest = JSON.parse(
  readFileSync(path.join(SHIPPED_CORPUS_DIR, 'manifest.json'), 'utf8'),
) as { documents: ManifestEntry[] };

const documents = await readCorpus(SHIPPED_CORPUS_DIR);

const chunked = documents.map((document) => ({
  document,
  entry: manifest.documents.find((entry) => entry.source === document.source) as ManifestEntry,
  chunks: chunkDocument(document),
}));

/** A label as a section's first line states it. */
const LABEL_LINE = /^(?:(Law)\.|(Guidance): [^\n]{3,200}\.|(Product policy): [^\n]{3,200}\.)$/;

function labelOf(chunk: Chunk): 'law' | 'guidance' | 'product_policy' | null {
  const match = LABEL_LINE.exec(chunk.body.split('\n', 1)[0] ?? '');
  if (!match) return null;
  if (match[1]) return 'law';
  return match[2] ? 'guidance' : 'product_policy';
}

/** A document's opening, before its first section: cited by the document's title alone. */
const isOpening = (chunk: Chunk) => chunk.headingPath.length === 1;

/** Provisions as "s.64AL", "art.4A", "sch.1A", "reg.3": the section, not the subsection. */
const PROVISION = /(s\.|reg\. |[Aa]rt\. |Sch\. )(\d{1,4}[A-Za-z]{0,4})/g;
const provisionKey = (kind: string, id: string) =>
  `${kind.trim().replace(/\.$/, '').toLowerCase()}.${id.toUpperCase()}`;

/**
 * What a rule's citation cites, by instrument: "Pensions Act 1990 s.64AL(3)" cites s.64AL of the
 * Pensions Act 1990; "S.I. No. 637 of 2025, art. 4A and Sch. 1A (…)" cites art. 4A and Sch. 1A of
 * S.I. No. 637 of 2025. The instrument is what comes before the first provision.
 */
function citedBy(citation: string): Array<{ instrument: string; provision: string }> {
  return citation.split(';').flatMap((part) => {
    const found = [...part.matchAll(PROVISION)];
    const first = found[0];
    if (!first) return [];
    const instrument = part.slice(0, first.index).trim().replace(/,$/, '').trim();
    return found.map((match) => ({
      instrument,
      provision: provisionKey(match[1] as string, match[2] as string),
    }));
  });
}

/** Every rule of the rule modules, src/contracts/*-rules.ts: their tables named …_RULES. */
const contracts = path.resolve(import.meta.dirname, '../../src/contracts');
const RULE_SOURCES: RuleSource[] = [];
for (const file of readdirSync(contracts).filter((name) => name.endsWith('-rules.ts'))) {
  const module = (await import(path.join(contracts, file))) as Record<string, unknown>;
  for (const [name, table] of Object.entries(module)) {
    if (name.endsWith('_RULES')) RULE_SOURCES.push(...Object.values(table as object));
  }
}

/** Every provision some rule of the rule modules cites, by instrument. */
const citedByRules = new Map<string, Set<string>>();
for (const source of RULE_SOURCES) {
  for (const { instrument, provision } of citedBy(source.citation)) {
    const set = citedByRules.get(instrument) ?? new Set<string>();
    set.add(provision);
    citedByRules.set(instrument, set);
  }
}

/** The provision a chunk's citation attributes its text to, after the document's title. */
function attributedTo(chunk: Chunk, title: string): string | null {
  const rest = chunk.citation.startsWith(title) ? chunk.citation.slice(title.length) : '';
  const match = [...rest.matchAll(PROVISION)][0];
  return match ? provisionKey(match[1] as string, match[2] as string) : null;
}

/** Why a chunk's text may not be attributed to its provision, or null when it may. */
function misattribution(chunk: Chunk, entry: ManifestEntry): string | null {
  const provision = attributedTo(chunk, entry.title);
  if (provision === null) return null;
  const listed = (entry.provisionsWithoutRule ?? []).map(listedKey);
  if (citedByRules.get(entry.title)?.has(provision) || listed.includes(provision)) return null;
  return `${chunk.citation}: no rule cites ${provision} of ${entry.title}, and the manifest does not list it`;
}

/** A provision as the manifest lists it ("s.54", "Art. 38"), keyed as a citation's is. */
function listedKey(listed: string): string {
  const match = [...listed.matchAll(PROVISION)][0];
  return match ? provisionKey(match[1] as string, match[2] as string) : `unreadable:${listed}`;
}

describe('the starter corpus, section by section', () => {
  it('reads every document of the manifest', () => {
    expect(chunked.map(({ entry }) => entry?.file)).toEqual(
      manifest.documents.map((entry) => entry.file),
    );
    expect(chunked.every(({ chunks }) => chunks.length > 1)).toBe(true);
  });

  it('names every document as a summary, so that none of its passages is shown as the law’s words', () => {
    // docs/decisions/0124-summaries-labelled-as-summaries.md
    expect(documents.filter((document) => sourceKindOf(document.source) !== 'summary')).toEqual([]);
  });

  it('opens every section with its label: Law, Guidance (whose) or Product policy', () => {
    const unlabelled = chunked.flatMap(({ chunks }) =>
      chunks.filter((chunk) => !isOpening(chunk) && labelOf(chunk) === null),
    );
    expect(unlabelled.map((chunk) => chunk.citation)).toEqual([]);
  });

  it('cites every section labelled law to its section, regulation, article or schedule, and nothing else to one', () => {
    const problems = chunked.flatMap(({ chunks }) =>
      chunks
        .filter((chunk) => !isOpening(chunk))
        .filter((chunk) => (labelOf(chunk) === 'law') !== namesAProvision(chunk.citation))
        .map((chunk) => `${chunk.citation} (${labelOf(chunk)})`),
    );
    expect(problems).toEqual([]);
  });

  it('says in each document’s opening what it is: a summary of the law with its official text, or not law', () => {
    for (const { entry, chunks } of chunked) {
      const opening = chunks.find(isOpening);
      expect(opening, entry.file).toBeDefined();
      const law = chunks.some((chunk) => labelOf(chunk) === 'law');
      if (law) {
        expect(opening?.body, entry.file).toMatch(/authoritative/);
        expect(entry.url, `${entry.file} links to the official text`).toMatch(/^https:\/\//);
      } else {
        expect(opening?.body, entry.file).toMatch(/not (?:the )?law/);
        expect(entry.title, entry.file).toMatch(/\(not law\)$/);
      }
    }
  });
});

describe('what the corpus attributes to a provision', () => {
  it('is a provision some rule module cites for that instrument, or one the manifest lists', () => {
    const problems = chunked.flatMap(({ entry, chunks }) =>
      chunks.map((chunk) => misattribution(chunk, entry)).filter((problem) => problem !== null),
    );
    expect(problems).toEqual([]);
  });

  it('lists in the manifest only provisions the document has a section for', () => {
    // A listed provision that a rule later cites is harmless; one with no section is stale.
    for (const { entry, chunks } of chunked) {
      const headed = new Set(
        chunks.map((chunk) => attributedTo(chunk, entry.title)).filter((key) => key !== null),
      );
      for (const listed of entry.provisionsWithoutRule ?? []) {
        expect(
          headed.has(listedKey(listed)),
          `${entry.file} lists ${listed} but has no section for it`,
        ).toBe(true);
      }
    }
  });

  it('refuses text of one instrument attributed to another: Schedule 1A under the Act', () => {
    expect(citedBy(AE_RULES.minimumStandard.citation)).toEqual([
      { instrument: 'S.I. No. 637 of 2025', provision: 'art.4A' },
      { instrument: 'S.I. No. 637 of 2025', provision: 'sch.1A' },
    ]);
    expect(citedBy(GOVERNANCE_RULES.ownRiskAssessment.citation)).toEqual([
      { instrument: 'Pensions Act 1990', provision: 's.64AL' },
    ]);
    const act = 'Automatic Enrolment Retirement Savings System Act 2024';
    const underTheAct = chunkDocument({
      title: act,
      format: 'markdown',
      content: '# Summary\n\n## Schedule 1A — Minimum standards\n\nLaw.\n\nAt least 1.5%.',
    }).find((chunk) => chunk.citation.endsWith('Sch. 1A')) as Chunk;
    expect(misattribution(underTheAct, { source: 'x', title: act, file: 'x.md' })).toContain(
      'no rule cites sch.1A',
    );
  });
});

describe('what the review found wrong', () => {
  const text = (file: string) => readFileSync(path.join(SHIPPED_CORPUS_DIR, file), 'utf8');
  const chunk = (file: string, citation: string) =>
    chunked
      .find(({ entry }) => entry.file === file)
      ?.chunks.find((candidate) => candidate.citation === citation);

  it('states s.64AL(3) as the Act does, with no product policy of counting from the due date', () => {
    const body = chunk('pensions-act-1990.md', 'Pensions Act 1990 s.64AL(3)')?.body ?? '';
    expect(body).toContain('at least once every 3 years');
    expect(body).toContain('without delay');
    expect(body).not.toMatch(/late assessment|does not move|counting from when/i);
  });

  it('cites the trustee rule to s.64AC as law, not as what the Authority expects', () => {
    expect(chunk('pensions-act-1990.md', 'Pensions Act 1990 s.64AC')?.body).toMatch(/^Law\./);
    expect(text('pensions-act-1990.md')).not.toMatch(/Authority expects/);
  });

  it('names the auto-enrolment Act No. 20 of 2024, linked to the Irish Statute Book', () => {
    const entry = manifest.documents.find(
      (candidate) => candidate.file === 'auto-enrolment-2024.md',
    );
    expect(entry?.url).toBe('https://www.irishstatutebook.ie/eli/2024/act/20/enacted/en/html');
    expect(text('auto-enrolment-2024.md')).toContain('No. 20 of 2024');
    expect(JSON.stringify(manifest)).not.toContain('/act/39/');
    for (const { entry: other } of chunked) {
      expect(text(other.file), other.file).not.toContain('No. 39');
    }
  });

  it('places the exempt-employment standard in S.I. No. 637 of 2025, art. 4A and Schedule 1A, as confirmed figures', () => {
    const standard = chunk('si-637-2025.md', 'S.I. No. 637 of 2025 Sch. 1A')?.body ?? '';
    expect(standard).toMatch(/^Law\./);
    expect(standard).toContain('€1,200');
    expect(standard).toContain('€2,800');
    expect(text('si-637-2025.md')).toContain('inserted with effect from 1 January 2026');
    for (const { entry } of chunked) {
      expect(text(entry.file), entry.file).not.toMatch(/as (?:practitioners )?report/i);
    }
  });

  it('claims nowhere that overlapping contributions are refunded', () => {
    for (const { entry } of chunked) {
      expect(text(entry.file), entry.file).not.toMatch(/overlapping contributions/i);
    }
  });

  it('keeps the practitioner’s ORA checklist as good practice, labelled, out of the Act’s text', () => {
    const practice = chunk(
      'guidance.md',
      'Guidance and good practice (not law) — The own-risk assessment: what reviews most often find missing',
    );
    expect(practice?.body).toMatch(/^Guidance: good practice from a practitioner's guide/);
    expect(text('pensions-act-1990.md')).not.toMatch(/minutes|generic text|template/i);
  });
});
