import { z } from 'zod';

/**
 * What is wrong with an uploaded file: the line (the heading row counts as a line, so the first
 * data row of most files is line 2), the column as its heading reads, a stable code and a
 * sentence. Messages never quote a cell: a PPS number must not travel back in an answer, a log
 * or the stored import record.
 */
export const importIssue = z.object({
  /** Null for what concerns the whole file (already imported, too large). */
  line: z.number().int().nullable(),
  column: z.string().nullable(),
  code: z.string(),
  message: z.string(),
});
export type ImportIssue = z.infer<typeof importIssue>;

/**
 * Every bad row is listed, up to this many; beyond it they are counted. A 25 MiB file of
 * two-byte lines would otherwise keep millions of issues in memory and in the import record.
 */
export const MAX_LISTED_ISSUES = 10_000;

/** The issues of one import: the first MAX_LISTED_ISSUES kept, all of them counted. */
export class IssueList {
  private readonly listed: ImportIssue[] = [];
  private total = 0;

  get count(): number {
    return this.total;
  }

  add(issue: ImportIssue): void {
    this.total += 1;
    if (this.listed.length < MAX_LISTED_ISSUES) this.listed.push(issue);
  }

  addAll(issues: readonly ImportIssue[]): void {
    for (const issue of issues) this.add(issue);
  }

  /** Issues found in SQL, of which `total` exist though only some were fetched. */
  addFound(found: readonly ImportIssue[], total: number): void {
    this.addAll(found);
    this.total += total - found.length;
  }

  /** The listed issues by line, then column: how a person works through the file. */
  sorted(): ImportIssue[] {
    return [...this.listed]
      .sort(
        (a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? '').localeCompare(b.column ?? ''),
      )
      .slice(0, MAX_LISTED_ISSUES);
  }
}
