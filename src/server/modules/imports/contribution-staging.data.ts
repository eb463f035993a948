import { sql } from 'drizzle-orm';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import { rowsOf } from '../../platform/db/database.js';
import type { ImportIssue } from '../../platform/uploads/import-issues.js';
import type { FoundIssues, Staging } from '../../platform/uploads/import-kind.js';
import { CONTRIBUTION_STAGING_COLUMNS } from './contribution-rows.rules.js';

const TABLE = 'import_contribution_rows';
/** One row per amount, with the member each file row names: what the checks and INSERT read. */
const ENTRIES = 'import_contribution_entries';

/** A cell of the file read after its column's name, as the import's other messages are. */
const AFTER_LEAVING_CELL_MESSAGE =
  'is for a month after the member stopped being active (they left, retired, transferred out, were refunded or died)';

interface FoundRow {
  line: number;
  code: 'unknown_member' | 'duplicate_in_file' | 'already_recorded' | 'after_leaving';
  kind: string | null;
  other_line: number | null;
  by_member_id: boolean | null;
  by_pps: boolean | null;
  total: number;
}

function unknownMember(row: FoundRow, heading: (field: string) => string): ImportIssue {
  if (row.by_member_id && row.by_pps) {
    return {
      line: row.line,
      column: heading('memberId'),
      code: row.code,
      message: 'and the PPS number do not name one member of this scheme',
    };
  }
  return row.by_member_id
    ? {
        line: row.line,
        column: heading('memberId'),
        code: row.code,
        message: 'names no member of this scheme',
      }
    : {
        line: row.line,
        column: heading('ppsNumber'),
        code: row.code,
        message: 'is the PPS number of no member of this scheme',
      };
}

/**
 * Contributions are staged one file row per line, then spread into one entry per amount with the
 * member resolved in SQL: by id, by the PPS lookup hashes under every key of the ring, or by both
 * (which must agree). Members are looked up among the live members of this scheme only.
 */
export const contributionStaging: Staging = {
  target: { table: TABLE, columns: CONTRIBUTION_STAGING_COLUMNS },

  async create(tx) {
    await tx.execute(
      sql.raw(`create temporary table ${TABLE} (
        line integer not null,
        member_ref text,
        pps_lookups text[],
        period text not null,
        employee_id text,
        employee_cents bigint,
        employer_id text,
        employer_cents bigint,
        avc_id text,
        avc_cents bigint
      ) on commit drop`),
    );
  },

  async findIssues(tx, scope, reader, limit): Promise<FoundIssues> {
    // Temporary tables are never analysed automatically; the planner needs their size.
    await tx.execute(sql.raw(`analyze ${TABLE}`));
    // Two ways to find the member, each a plain join the planner can hash: by id (checking the
    // PPS number too when the row gives one), or by any of the row's lookup hashes.
    await tx.execute(sql`
      create temporary table ${sql.raw(ENTRIES)} on commit drop as
      with matched as (
        select staged.line, members.id as member_id
        from ${sql.raw(TABLE)} staged
        join members on members.id = staged.member_ref
        where members.scheme_id = ${scope.schemeId}
          and members.deleted_at is null
          and (staged.pps_lookups is null or members.pps_lookup = any (staged.pps_lookups))
        union all
        select by_hash.line, min(by_hash.member_id)
        from (
          select staged.line, members.id as member_id
          from ${sql.raw(TABLE)} staged
          cross join lateral unnest(staged.pps_lookups) as hash(lookup)
          join members on members.pps_lookup = hash.lookup
          where staged.member_ref is null
            and members.scheme_id = ${scope.schemeId}
            and members.deleted_at is null
        ) by_hash
        group by by_hash.line
      )
      select
        staged.line,
        matched.member_id,
        staged.member_ref is not null as by_member_id,
        staged.pps_lookups is not null as by_pps,
        staged.period,
        entry.kind,
        entry.id,
        entry.cents
      from ${sql.raw(TABLE)} staged
      left join matched on matched.line = staged.line
      cross join lateral (
        values
          ('employee', staged.employee_id, staged.employee_cents),
          ('employer', staged.employer_id, staged.employer_cents),
          ('avc', staged.avc_id, staged.avc_cents)
      ) as entry(kind, id, cents)
      where entry.cents is not null
    `);
    await tx.execute(sql.raw(`analyze ${ENTRIES}`));
    const result = await tx.execute(sql`
      select line, code, kind, other_line, by_member_id, by_pps, count(*) over () :: integer as total
      from (
        select distinct
          line, 'unknown_member' as code, null :: text as kind, null :: integer as other_line,
          by_member_id, by_pps
        from ${sql.raw(ENTRIES)}
        where member_id is null
        union all
        select line, 'duplicate_in_file', kind, first_line, null, null
        from (
          select line, kind, min(line) over (partition by member_id, period, kind) as first_line
          from ${sql.raw(ENTRIES)}
          where member_id is not null
        ) numbered
        where line <> first_line
        union all
        select entry.line, 'already_recorded', entry.kind, null, null, null
        from ${sql.raw(ENTRIES)} entry
        join contributions recorded
          on recorded.member_id = entry.member_id
          and recorded.period = entry.period
          and recorded.kind = entry.kind
        union all
        -- contributionAfterLeaving (src/contracts/member-lifecycle-rules.ts), for a whole file.
        select entry.line, 'after_leaving', entry.kind, null, null, null
        from ${sql.raw(ENTRIES)} entry
        join members m on m.id = entry.member_id
        where m.status <> 'active' and m.status_on is not null
          and entry.period > to_char(m.status_on, 'YYYY-MM')
      ) found
      order by line, kind
      limit ${limit}
    `);
    const rows = rowsOf<FoundRow>(result);
    const issues = rows.map((row): ImportIssue => {
      if (row.code === 'unknown_member') return unknownMember(row, reader.heading);
      const column = reader.heading(row.kind ?? '');
      if (row.code === 'after_leaving') {
        return { line: row.line, column, code: row.code, message: AFTER_LEAVING_CELL_MESSAGE };
      }
      return row.code === 'duplicate_in_file'
        ? {
            line: row.line,
            column,
            code: row.code,
            message: `repeats the member, period and kind of line ${row.other_line}`,
          }
        : {
            line: row.line,
            column,
            code: row.code,
            message: 'is already recorded for this member, period and kind',
          };
    });
    return { issues, total: rows[0]?.total ?? 0 };
  },

  async insert(tx, scope) {
    const at = scope.at.toISOString();
    // A file's money arrived the day it is imported (docs/decisions/0127-dc-money.md).
    const receivedOn = todayInIreland(scope.at);
    const result = await tx.execute(sql`
      with inserted as (
        insert into contributions (
          id, broker_id, employer_id, scheme_id, member_id, period, kind, amount_cents,
          received_on, import_id, created_by, created_at
        )
        select
          id, ${scope.brokerId}, ${scope.employerId}, ${scope.schemeId}, member_id, period, kind,
          cents, ${receivedOn} :: date, ${scope.importId}, ${scope.userId}, ${at} :: timestamptz
        from ${sql.raw(ENTRIES)}
        returning 1
      )
      select count(*) :: integer as written from inserted
    `);
    return rowsOf<{ written: number }>(result)[0]?.written ?? 0;
  },
};
