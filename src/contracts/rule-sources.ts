/**
 * Where a rule comes from, said the same way by every rule module
 * (docs/decisions/0120-rules-labelled-law-guidance-policy.md: label every rule as law, guidance or
 * product policy, and never cite a statute for a product policy). A rule module keeps one source
 * beside each rule; the API passes the label and the citation on, and the pages show them as they
 * are given, the label in words.
 */

export const RULE_LABELS = ['law', 'guidance', 'product_policy'] as const;
export type RuleLabel = (typeof RULE_LABELS)[number];

/** Each label in words, for the pages, the PDFs and the e-mails. */
export const RULE_LABEL_NAMES: Record<RuleLabel, string> = {
  law: 'Law',
  guidance: 'Guidance',
  product_policy: 'Product policy',
};

export interface RuleSource {
  readonly label: RuleLabel;
  /**
   * Law: the instrument and its provision, to the section, regulation, article or schedule
   * ("Pensions Act 1990 s.64AC(1)–(2)"). Guidance: whose it is ("the Pensions Authority's …").
   * Product policy: what this service decided, in words, naming no statute.
   */
  readonly citation: string;
}

export const law = (citation: string): RuleSource => ({ label: 'law', citation });
export const guidance = (citation: string): RuleSource => ({ label: 'guidance', citation });
export const productPolicy = (citation: string): RuleSource => ({
  label: 'product_policy',
  citation,
});

/**
 * A provision named the way the rule modules and the corpus name one: a section (`s.64AL(3)`), a
 * regulation (`reg. 3`), an article (`Art. 28`, `art. 4A`) or a schedule (`Sch. 1A`). Citations
 * are short and written here, never typed by a user.
 */
const PROVISION =
  /(?:^|[\s(;,])(?:s\.\d{1,4}[A-Z]{0,4}|reg\. \d{1,4}|[Aa]rt\. \d{1,4}[A-Z]?|Sch\. \d{1,3}[A-Z]?)/;

/** Whether a citation names a provision precisely enough for a rule labelled law. */
export function namesAProvision(citation: string): boolean {
  return PROVISION.test(citation);
}

/** A source as one line: "Law: Pensions Act 1990 s.64AC(1)–(2)". */
export function sourceInWords(source: RuleSource): string {
  return `${RULE_LABEL_NAMES[source.label]}: ${source.citation}`;
}

/** Where a citation's provision begins: ` s.`, ` reg. `, ` art. `, ` Art. `, ` Sch. `. */
const PROVISION_START = / (?=s\.\d|reg\. \d|[Aa]rt\. \d|Sch\. \d)/;

/** A range of one kind of provision, "reg. 31 to reg. 35", and the numbers it runs between. */
const PROVISION_RANGE = /^(s\.|reg\. |[Aa]rt\. |Sch\. )(\d+) to \1(\d+)$/;

/** Whether `provision` ("reg. 35", "reg. 35(2)") lies within `range` ("reg. 31 to reg. 35"). */
function withinRange(range: string, provision: string): boolean {
  const bounds = PROVISION_RANGE.exec(range);
  if (!bounds) return false;
  const [, kind, first, last] = bounds as unknown as [string, string, string, string];
  const single = new RegExp(`^${kind.replace('.', '\\.')}(\\d+)(?![\\d])`).exec(provision);
  if (!single) return false;
  const number = Number(single[1]);
  return number >= Number(first) && number <= Number(last);
}

type SourceLine =
  | { kind: 'whole'; source: RuleSource }
  | { kind: 'grouped'; label: RuleLabel; instrument: string; provisions: string[] };

/**
 * The sources grouped by label and instrument, in the order first given: a provision already
 * within a range of its group ("reg. 35" beside "reg. 31 to reg. 35") is not named again, and a
 * citation naming no provision keeps a line of its own.
 */
function groupedSources(sources: readonly RuleSource[]): SourceLine[] {
  const lines: SourceLine[] = [];
  for (const source of sources) {
    const at = source.citation.search(PROVISION_START);
    if (at <= 0) {
      if (!lines.some((line) => line.kind === 'whole' && sameSource(line.source, source))) {
        lines.push({ kind: 'whole', source });
      }
      continue;
    }
    const instrument = source.citation.slice(0, at);
    const provision = source.citation.slice(at + 1);
    const group = lines.find(
      (line): line is Extract<SourceLine, { kind: 'grouped' }> =>
        line.kind === 'grouped' && line.label === source.label && line.instrument === instrument,
    );
    if (!group) {
      lines.push({ kind: 'grouped', label: source.label, instrument, provisions: [provision] });
      continue;
    }
    if (group.provisions.some((held) => held === provision || withinRange(held, provision))) {
      continue;
    }
    group.provisions = [
      ...group.provisions.filter((held) => !withinRange(provision, held)),
      provision,
    ];
  }
  return lines;
}

const sameSource = (a: RuleSource, b: RuleSource) =>
  a.label === b.label && a.citation === b.citation;

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length === 1
    ? (items[0] as string)
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * Several sources as lines, each instrument named once: the provisions of one act under one
 * label are joined ("Law: Automatic Enrolment Retirement Savings System Act 2024 s.50(2)–(3) and
 * s.51"), in the order first given; a citation naming no provision keeps a line of its own.
 */
export function sourcesInWords(sources: readonly RuleSource[]): string[] {
  return groupedSources(sources).map((line) =>
    line.kind === 'whole'
      ? sourceInWords(line.source)
      : `${RULE_LABEL_NAMES[line.label]}: ${line.instrument} ${listed(line.provisions)}`,
  );
}

/** Each kind of provision's abbreviation in words, one and several. */
const PROVISION_NAMES: Record<string, [string, string]> = {
  's.': ['section ', 'sections '],
  'reg. ': ['regulation ', 'regulations '],
  'art. ': ['article ', 'articles '],
  'Art. ': ['Article ', 'Articles '],
  'Sch. ': ['Schedule ', 'Schedules '],
};

/** A provision as a sentence says it: "reg. 31 to reg. 35" as "regulations 31 to 35". */
function provisionInProse(provision: string): string {
  const range = PROVISION_RANGE.exec(provision);
  if (range) {
    const [, kind, first, last] = range as unknown as [string, string, string, string];
    return `${(PROVISION_NAMES[kind] as [string, string])[1]}${first} to ${last}`;
  }
  for (const [kind, [one]] of Object.entries(PROVISION_NAMES)) {
    if (provision.startsWith(kind)) return `${one}${provision.slice(kind.length)}`;
  }
  return provision;
}

/**
 * The law a document is given under, as a sentence says it: each instrument once, then its
 * provisions in words ("S.I. No. 128/2021, regulations 31 to 35"), no label, instruments joined by
 * "and". Only the sources labelled law are named: guidance and policy are not what a document is
 * given under.
 */
export function lawInProse(sources: readonly RuleSource[]): string {
  return listed(
    groupedSources(sources.filter((source) => source.label === 'law')).map((line) =>
      line.kind === 'whole'
        ? line.source.citation
        : `${line.instrument}, ${listed(line.provisions.map(provisionInProse))}`,
    ),
  );
}
