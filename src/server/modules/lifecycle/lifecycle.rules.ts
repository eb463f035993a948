import {
  addService,
  type Service,
  serviceBetween,
} from '../../../contracts/member-lifecycle-rules.js';

/**
 * A member's history read as it now stands (docs/decisions/0135-members-lifecycle.md): which
 * changes a correction undid, which is the latest still in force, and the qualifying service.
 */

export interface Change {
  id: string;
  /** One of STATUS_CHANGE_KINDS (member-lifecycle-rules.ts). */
  kind: string;
  fromStatus: string;
  toStatus: string;
  effectiveOn: string;
  correctsId: string | null;
}

/** The changes in force: neither corrections nor undone by one, oldest first. */
export function inForce<C extends Change>(changes: readonly C[]): C[] {
  const undone = new Set(
    changes.flatMap((change) => (change.correctsId === null ? [] : [change.correctsId])),
  );
  return changes.filter((change) => change.kind !== 'corrected' && !undone.has(change.id));
}

/** The latest change in force, which a correction may undo, or undefined. */
export function latestInForce<C extends Change>(changes: readonly C[]): C | undefined {
  const standing = inForce(changes);
  return standing[standing.length - 1];
}

/**
 * Qualifying service: each period of active membership, from joining or rejoining to leaving
 * (or to `today` while active), both days counted, added up since the member was last paid out
 * by a refund or a transfer.
 */
export function qualifyingService(
  dateJoined: string,
  changes: readonly Change[],
  status: string,
  today: string,
): Service {
  let periods: Service[] = [];
  let start: string | null = dateJoined;
  for (const change of inForce(changes)) {
    if (change.fromStatus === 'active' && start !== null) {
      periods.push(serviceBetween(start, change.effectiveOn));
      start = null;
    }
    if (change.kind === 'refunded' || change.kind === 'transferred_out') periods = [];
    if (change.toStatus === 'active') start = change.effectiveOn;
  }
  if (status === 'active' && start !== null && start <= today) {
    periods.push(serviceBetween(start, today));
  }
  return addService(periods);
}

/** The day the current period of active membership started: joining or the latest rejoining. */
export function activeSince(dateJoined: string, changes: readonly Change[]): string {
  let since = dateJoined;
  for (const change of inForce(changes)) if (change.kind === 'rejoined') since = change.effectiveOn;
  return since;
}

/** The pay period (`YYYY-MM`) of the latest refund or transfer out in force, or null. */
export function lastPaidOutPeriod(changes: readonly Change[]): string | null {
  let last: string | null = null;
  for (const change of inForce(changes)) {
    if (change.kind === 'refunded' || change.kind === 'transferred_out') {
      last = change.effectiveOn.slice(0, 7);
    }
  }
  return last;
}
