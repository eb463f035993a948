import { z } from 'zod';
import { isTooWide } from '../../../contracts/csv.js';
import type { ImportIssue } from '../../../contracts/imports.js';
import { MEMBER_COLUMNS, type MemberColumn } from '../../../contracts/imports.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import { checkMemberDates, memberFieldShape } from '../../../contracts/members.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { CONTROL_CHARACTER_REASON } from '../../../contracts/text.js';
import type { PpsKeyring } from '../../platform/crypto/pps-keyring.js';
import { type Columns, missingColumn, readHeadings } from '../../platform/uploads/csv-columns.js';
import {
  parseCsvDate,
  parseEuroCents,
  parseWholeCents,
} from '../../platform/uploads/csv-values.js';
import type { ImportScope, RowReader } from '../../platform/uploads/import-kind.js';
import type { createRowIdSource } from '../../platform/uploads/row-ids.js';
import { copyHexArray, copyLine } from '../../platform/uploads/spool-file.js';
import { OTHER_ARRANGEMENT, thisSchemeArrangement } from './arrangement.rules.js';

const REQUIRED_TEXT = ['ppsNumber', 'firstName', 'lastName'] as const;
const DATES = ['dateOfBirth', 'dateJoined'] as const;

/** Codes for refusals by the field rules, by field; other fields keep the rule's own kind. */
const FIELD_CODES: Partial<Record<string, string>> = {
  ppsNumber: 'invalid_pps_number',
  dateOfBirth: 'invalid_date',
  dateJoined: 'invalid_date',
  email: 'invalid_email',
  status: 'invalid_status',
  salaryCents: 'invalid_amount',
};

/** The columns of the staging table, in the order of each COPY line. */
export const MEMBER_STAGING_COLUMNS = [
  'line',
  'id',
  'first_name',
  'last_name',
  'date_of_birth',
  'email',
  'address',
  'date_joined',
  'salary_cents',
  'status',
  'pps_encrypted',
  'pps_lookup',
  'pps_key_id',
  'pps_lookups',
] as const;

/**
 * Values that pass the field rules, standing in for cells already refused here, so that the rules
 * still check every other cell of the row. The dates are the widest the rules allow, so that no
 * check between the two dates fires because of a stand-in.
 */
const STAND_INS = {
  ppsNumber: '6433435F',
  firstName: 'x',
  lastName: 'x',
  dateOfBirth: '1900-01-01',
};

export interface MemberRowDeps {
  ppsKeyring: PpsKeyring;
  nextId: ReturnType<typeof createRowIdSource>;
}

/**
 * The rows of a members file against the same field rules as POST /api/schemes/:id/members, each
 * accepted row turned into its staging line: a fresh id, the PPS number sealed to that member
 * and tenant, and its lookup hashes (the current key's, stored, and every key's, for finding the
 * number among members sealed before a key rotation).
 */
export function createMemberRows(scope: ImportScope, deps: MemberRowDeps): RowReader {
  // Not born in the future: the day in Ireland when the file was uploaded (docs/decisions/0050-irish-dates.md).
  const today = todayInIreland(scope.at);
  const rules = z
    .object(memberFieldShape)
    .superRefine((fields, context) => checkMemberDates(fields, today, context));
  let columns: Columns<MemberColumn> | null = null;
  /** The headings name every required column: rows can be staged. */
  let complete = false;
  let rowsToWrite = 0;
  const namesThisScheme = thisSchemeArrangement(scope);

  return {
    get rowsToWrite() {
      return rowsToWrite;
    },
    heading: (field) => (columns ? columns.heading(field as MemberColumn) : field),

    readHeader(cells, line) {
      const read = readHeadings(cells, line, MEMBER_COLUMNS);
      columns = read.columns;
      const issues = read.issues;
      for (const field of [...REQUIRED_TEXT, ...DATES]) {
        if (!read.columns.has(field)) {
          issues.push(
            missingColumn(line, MEMBER_COLUMNS[field][0], MEMBER_COLUMNS[field].join(', ')),
          );
        }
      }
      if (read.columns.has('salary') && read.columns.has('salaryCents')) {
        issues.push({
          line,
          column: read.columns.heading('salaryCents'),
          code: 'duplicate_column',
          message: `names the salary a second time; keep either ${read.columns.heading('salary')} (euro) or this column (cents)`,
        });
      } else if (!read.columns.has('salary') && !read.columns.has('salaryCents')) {
        issues.push(
          missingColumn(
            line,
            MEMBER_COLUMNS.salary[0],
            [...MEMBER_COLUMNS.salary, ...MEMBER_COLUMNS.salaryCents].join(', '),
          ),
        );
      }
      complete = !issues.some((issue) => issue.code === 'missing_column');
      return issues;
    },

    readRow(cells, line) {
      if (columns === null) throw new Error('readRow before readHeader');
      const layout = columns;
      const issues: ImportIssue[] = layout.strayCells(cells, line);
      // Its cells may be under the wrong headings: what is said of them would mislead.
      if (issues.some(isTooWide)) return issues;
      const refused = new Set<string>();
      const refuse = (field: MemberColumn, code: string, message: string) => {
        issues.push({ line, column: layout.heading(field), code, message });
        refused.add(field === 'salary' ? 'salaryCents' : field);
      };
      const text = (field: MemberColumn) => layout.cell(cells, field);
      // A required column the headings lack is reported once, on the heading line: its rows are
      // checked without it, a stand-in in its place.
      for (const field of [...REQUIRED_TEXT, ...DATES]) {
        if (!layout.has(field)) refused.add(field);
      }
      const hasSalary = layout.has('salary') || layout.has('salaryCents');
      if (!hasSalary) refused.add('salaryCents');

      for (const field of REQUIRED_TEXT) {
        if (layout.has(field) && text(field) === '') {
          refuse(field, 'required', FIELD_MESSAGES.required);
        }
      }
      const dates: Record<(typeof DATES)[number], string> = {
        dateOfBirth: STAND_INS.dateOfBirth,
        dateJoined: today,
      };
      for (const field of DATES) {
        if (!layout.has(field)) continue;
        const cell = text(field);
        const parsed = cell === '' ? null : parseCsvDate(cell);
        if (parsed === null) refuse(field, 'required', FIELD_MESSAGES.required);
        else if (!parsed.ok) refuse(field, parsed.code, parsed.message);
        else dates[field] = parsed.value;
      }
      let salaryCents = 0;
      // The salary in euro or in cents; a file naming both (refused on its heading line) has each
      // row read by the one it fills, the cents where both are.
      const salaryColumn: 'salary' | 'salaryCents' =
        layout.has('salaryCents') && (!layout.has('salary') || text('salaryCents') !== '')
          ? 'salaryCents'
          : 'salary';
      const salaryCell = text(salaryColumn);
      // Without a salary column, reported on the heading line.
      if (hasSalary && salaryCell === '') {
        refuse(salaryColumn, 'required', FIELD_MESSAGES.required);
      } else if (hasSalary) {
        const parsed =
          salaryColumn === 'salary' ? parseEuroCents(salaryCell) : parseWholeCents(salaryCell);
        if (parsed.ok) salaryCents = parsed.value;
        else refuse(salaryColumn, parsed.code, parsed.message);
      }

      if (!namesThisScheme(text('arrangement'))) {
        refuse('arrangement', OTHER_ARRANGEMENT.code, OTHER_ARRANGEMENT.message);
      }

      const checked = rules.safeParse({
        ppsNumber: refused.has('ppsNumber') ? STAND_INS.ppsNumber : text('ppsNumber'),
        firstName: refused.has('firstName') ? STAND_INS.firstName : text('firstName'),
        lastName: refused.has('lastName') ? STAND_INS.lastName : text('lastName'),
        dateOfBirth: dates.dateOfBirth,
        dateJoined: dates.dateJoined,
        email: text('email') || null,
        address: text('address') || null,
        salaryCents,
        status: text('status').toLowerCase() || undefined,
      });
      if (!checked.success) {
        for (const issue of checked.error.issues) {
          const field = String(issue.path[0] ?? '');
          if (refused.has(field)) continue;
          const column = field === 'salaryCents' ? salaryColumn : (field as MemberColumn);
          const reason = (issue as { params?: { reason?: unknown } }).params?.reason;
          issues.push({
            line,
            column: layout.heading(column),
            code:
              reason === CONTROL_CHARACTER_REASON
                ? 'control_character'
                : (FIELD_CODES[field] ?? (issue.code === 'too_big' ? 'too_long' : 'invalid_value')),
            message: issue.message,
          });
        }
      }
      if (issues.length > 0 || !checked.success || !complete) return issues;

      const member = checked.data;
      const id = deps.nextId();
      const sealed = deps.ppsKeyring.seal(member.ppsNumber, {
        tenantId: scope.brokerId,
        memberId: id,
      });
      // With one key in the ring its hash is the current one: one HMAC a row instead of two.
      const lookups = deps.ppsKeyring.lookups(scope.brokerId, member.ppsNumber);
      const lookup =
        lookups.length === 1
          ? (lookups[0] as string)
          : deps.ppsKeyring.lookup(scope.brokerId, member.ppsNumber);
      rowsToWrite += 1;
      return copyLine([
        line,
        id,
        member.firstName,
        member.lastName,
        member.dateOfBirth,
        member.email ?? null,
        member.address ?? null,
        member.dateJoined,
        member.salaryCents,
        member.status,
        sealed.encrypted,
        lookup,
        sealed.keyId,
        copyHexArray(lookups),
      ]);
    },
  };
}
