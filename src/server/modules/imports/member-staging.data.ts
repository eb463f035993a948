import { sql } from 'drizzle-orm';
import { rowsOf } from '../../platform/db/database.js';
import type { ImportIssue } from '../../platform/uploads/import-issues.js';
import type { FoundIssues, Staging } from '../../platform/uploads/import-kind.js';
import { MEMBER_STAGING_COLUMNS } from './member-rows.rules.js';

const TABLE = 'import_member_rows';

interface FoundRow {
  line: number;
  code: 'duplicate_in_file' | 'already_member';
  other_line: number | null;
  total: number;
}

/**
 * Members are staged in a temporary table of the import's transaction, dropped at its end. The
 * checks that need the whole file or the database run here, on the lookup hashes: one PPS number
 * twice in the file, or already a live member of this scheme (under any key of the ring, since
 * rows sealed before a rotation carry the previous key's hash).
 */
export const memberStaging: Staging = {
  target: { table: TABLE, columns: MEMBER_STAGING_COLUMNS },

  async create(tx) {
    await tx.execute(
      sql.raw(`create temporary table ${TABLE} (
        line integer not null,
        id text not null,
        first_name text not null,
        last_name text not null,
        date_of_birth date not null,
        email text,
        address text,
        date_joined date not null,
        salary_cents bigint not null,
        status text not null,
        pps_encrypted text not null,
        pps_lookup text not null,
        pps_key_id text not null,
        pps_lookups text[] not null
      ) on commit drop`),
    );
  },

  async findIssues(tx, scope, reader, limit): Promise<FoundIssues> {
    // Temporary tables are never analysed automatically; the planner needs their size.
    await tx.execute(sql.raw(`analyze ${TABLE}`));
    const result = await tx.execute(sql`
      select line, code, other_line, count(*) over () :: integer as total
      from (
        select line, 'duplicate_in_file' as code, first_line as other_line
        from (
          select line, min(line) over (partition by pps_lookup) as first_line
          from ${sql.raw(TABLE)}
        ) numbered
        where line <> first_line
        union all
        select distinct staged.line, 'already_member', null :: integer
        from ${sql.raw(TABLE)} staged
        cross join lateral unnest(staged.pps_lookups) as hash(lookup)
        join members on members.pps_lookup = hash.lookup
        where members.scheme_id = ${scope.schemeId} and members.deleted_at is null
      ) found
      order by line
      limit ${limit}
    `);
    const rows = rowsOf<FoundRow>(result);
    const column = reader.heading('ppsNumber');
    const issues = rows.map(
      (row): ImportIssue => ({
        line: row.line,
        column,
        code: row.code,
        message:
          row.code === 'duplicate_in_file'
            ? `is the same PPS number as on line ${row.other_line}`
            : 'is the PPS number of a member already in this scheme',
      }),
    );
    return { issues, total: rows[0]?.total ?? 0 };
  },

  async insert(tx, scope) {
    const at = scope.at.toISOString();
    const result = await tx.execute(sql`
      with inserted as (
        insert into members (
          id, broker_id, employer_id, scheme_id, first_name, last_name, date_of_birth, email,
          address, date_joined, salary_cents, status, pps_encrypted, pps_lookup, pps_key_id,
          created_at, updated_at
        )
        select
          id, ${scope.brokerId}, ${scope.employerId}, ${scope.schemeId}, first_name, last_name,
          date_of_birth, email, address, date_joined, salary_cents, status, pps_encrypted,
          pps_lookup, pps_key_id, ${at} :: timestamptz, ${at} :: timestamptz
        from ${sql.raw(TABLE)}
        returning 1
      )
      select count(*) :: integer as written from inserted
    `);
    return rowsOf<{ written: number }>(result)[0]?.written ?? 0;
  },
};
