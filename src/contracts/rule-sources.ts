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

/**
 * Several sources as lines, each instrument named once: the provisions of one act under one
 * label are joined ("Law: Automatic Enrolment Retirement Savings System Act 2024 s.50(2)–(3) and
 * s.51"), in the order first given; a citation naming no provision keeps a line of its own.
 */
export function sourcesInWords(sources: readonly RuleSource[]): string[] {
  const groups = new Map<string, { label: RuleLabel; instrument: string; provisions: string[] }>();
  const lines: Array<string | { key: string }> = [];
  for (const source of sources) {
    const at = source.citation.search(PROVISION_START);
    if (at <= 0) {
      const line = sourceInWords(source);
      if (!lines.includes(line)) lines.push(line);
      continue;
    }
    const instrument = source.citation.slice(0, at);
    const provision = source.citation.slice(at + 1);
    const key = `${source.label}\u0000${instrument}`;
    const group = groups.get(key);
    if (group) {
      if (!group.provisions.includes(provision)) group.provisions.push(provision);
    } else {
      groups.set(key, { label: source.label, instrument, provisions: [provision] });
      lines.push({ key });
    }
  }
  return lines.map((line) => {
    if (typeof line === 'string') return line;
    const group = groups.get(line.key) as {
      label: RuleLabel;
      instrument: string;
      provisions: string[];
    };
    const provisions =
      group.provisions.length === 1
        ? (group.provisions[0] as string)
        : `${group.provisions.slice(0, -1).join(', ')} and ${group.provisions.at(-1)}`;
    return `${RULE_LABEL_NAMES[group.label]}: ${group.instrument} ${provisions}`;
  });
}
