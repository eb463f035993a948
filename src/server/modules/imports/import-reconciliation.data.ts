import { and, inArray, sum } from 'drizzle-orm';
import { contributions, users } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export interface ImportTotals {
  employeeCents: number;
  employerCents: number;
  avcCents: number;
  totalCents: number;
}

/** What an import's result shows to be checked against the payroll run (docs/decisions/0048-contributions-as-a-payroll-grid.md). */
export interface Reconciliation {
  /** The uploader's name, read now; the import keeps their id. */
  uploadedBy: string | null;
  /** For a contributions file: what it recorded, in euro cents per kind; null for members. */
  totals: ImportTotals | null;
}

const FIELD = {
  employee: 'employeeCents',
  employer: 'employerCents',
  avc: 'avcCents',
} as const;

/** The uploader's name and, for contributions, the totals per kind, of each import. */
export async function reconcile(
  tx: Transaction,
  rows: Array<{ id: string; kind: string; createdBy: string; status: string }>,
): Promise<Map<string, Reconciliation>> {
  const uploaders = [...new Set(rows.map((row) => row.createdBy))];
  const names =
    uploaders.length === 0
      ? []
      : await tx
          .select({ id: users.id, name: users.name })
          .from(users)
          .where(inArray(users.id, uploaders));
  const nameOf = new Map(names.map((row) => [row.id, row.name]));
  const contributionImports = rows
    .filter((row) => row.kind === 'contributions' && row.status === 'succeeded')
    .map((row) => row.id);
  const sums =
    contributionImports.length === 0
      ? []
      : await tx
          .select({
            importId: contributions.importId,
            kind: contributions.kind,
            cents: sum(contributions.amountCents),
          })
          .from(contributions)
          .where(and(inArray(contributions.importId, contributionImports)))
          .groupBy(contributions.importId, contributions.kind);
  const result = new Map<string, Reconciliation>();
  for (const row of rows) {
    let totals: ImportTotals | null = null;
    if (row.kind === 'contributions') {
      totals = { employeeCents: 0, employerCents: 0, avcCents: 0, totalCents: 0 };
      for (const part of sums) {
        if (part.importId !== row.id) continue;
        const cents = Number(part.cents ?? 0);
        totals[FIELD[part.kind as keyof typeof FIELD]] += cents;
        totals.totalCents += cents;
      }
    }
    result.set(row.id, { uploadedBy: nameOf.get(row.createdBy) ?? null, totals });
  }
  return result;
}

/** The one import's reconciliation. */
export async function reconcileOne(
  tx: Transaction,
  row: { id: string; kind: string; createdBy: string; status: string },
): Promise<Reconciliation> {
  return (await reconcile(tx, [row])).get(row.id) ?? { uploadedBy: null, totals: null };
}
