import type { CopyTarget } from '../db/database.js';
import type { IMPORT_KINDS } from '../db/schema.js';
import type { Transaction } from '../db/with-actor.js';
import type { ImportIssue } from './import-issues.js';

export type ImportKindName = (typeof IMPORT_KINDS)[number];

/** Where an import writes, who runs it and when: fixed before the first row is read. */
export interface ImportScope {
  importId: string;
  brokerId: string;
  employerId: string;
  schemeId: string;
  /** The scheme's name: what a row's Arrangement cell may name it by, besides its id. */
  schemeName: string;
  userId: string;
  at: Date;
}

/** Phase 1 of an import: the rows of one file, checked one at a time as they arrive. */
export interface RowReader {
  /**
   * Checks the heading row: columns unknown, named twice, or required and missing. Its rows are
   * read all the same, and checked by the columns it does name (docs/imports.md).
   */
  readHeader(cells: readonly string[], line: number): ImportIssue[];
  /**
   * One data row: its line for the staging table (COPY text format), what is wrong with it, or
   * null when the reader keeps the accepted row itself (the payroll upload gathers each person's
   * rows before staging them). Under headings that lack a required column, a row is checked by
   * the columns there are, never for the missing one, and never staged: what is wrong with it,
   * or no issue at all.
   */
  readRow(cells: readonly string[], line: number): string | ImportIssue[] | null;
  /** Rows of the tenant table the accepted rows will become. */
  readonly rowsToWrite: number;
  /** The heading of a column as this file writes it, for issues found later in SQL. */
  heading(field: string): string;
}

/** Issues found in SQL: the first few, and how many there are in all. */
export interface FoundIssues {
  issues: ImportIssue[];
  total: number;
}

/**
 * Phase 2 of an import, in one transaction: a temporary table filled by COPY, the checks that need
 * the whole file or the database (duplicates, unknown members) in SQL, then INSERT … SELECT into
 * the tenant table, where row-level security applies.
 */
export interface Staging {
  target: CopyTarget;
  create(tx: Transaction): Promise<void>;
  findIssues(
    tx: Transaction,
    scope: ImportScope,
    reader: RowReader,
    limit: number,
  ): Promise<FoundIssues>;
  /** Writes the staged rows, after findIssues found none; answers how many rows were written. */
  insert(tx: Transaction, scope: ImportScope): Promise<number>;
}
