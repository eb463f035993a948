import type { ImportIssue } from '../../../contracts/imports.js';

export { type ImportIssue, importIssue } from '../../../contracts/imports.js';

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
