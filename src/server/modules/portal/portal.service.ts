import { actorForMember, auditSummary } from '../../../contracts/audit-text.js';
import {
  CONTRIBUTION_KIND_LABELS_FOR_MEMBER,
  type ContributionKind,
  correctionNotes,
} from '../../../contracts/contributions.js';
import { csvDocument } from '../../../contracts/csv.js';
import {
  DATA_REQUEST_KIND_NAMES,
  DATA_REQUEST_STATUS_NAMES,
  type DataRequestKind,
  type DataRequestStatus,
} from '../../../contracts/data-request-rules.js';
import { formatDecimal6 } from '../../../contracts/dc-money-rules.js';
import { DOCUMENT_TYPE_LABELS, type DocumentType } from '../../../contracts/documents.js';
import {
  MEMBER_TRANSACTION_KIND_LABELS,
  type MemberTransactionKind,
} from '../../../contracts/investments.js';
import {
  dateInWords,
  momentInWords,
  periodInWords,
  todayInIreland,
} from '../../../contracts/irish-dates.js';
import { MEMBER_STATUS_NAMES, type MemberStatus } from '../../../contracts/members.js';
import { formatCents, plainEuro } from '../../../contracts/money.js';
import { SCHEME_TYPE_NAMES, type SchemeType } from '../../../contracts/organisation.js';
import type { SchemeStatus } from '../../../contracts/scheme-wind-up.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { withActor } from '../../platform/db/with-actor.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, isAllowed } from '../../platform/tenancy/authorize.js';
import { contributionsOfMember } from '../contributions/index.js';
import { findEmployer } from '../employers/index.js';
import { memberRecordOf } from '../gdpr/index.js';
import { findMember, findMemberForChange } from '../members/index.js';
import { findScheme, refuseWoundUp } from '../schemes/index.js';
import { memberDataPdf } from './member-data.pdf.js';
import { updateMemberContact } from './portal.data.js';
import type { ContactChange, MemberSummary } from './portal.schemas.js';

type Totals = MemberSummary['allTime'];
const noTotals = (): Totals => ({ employeeCents: 0, employerCents: 0, avcCents: 0, totalCents: 0 });
const FIELD: Record<string, keyof Totals> = {
  employee: 'employeeCents',
  employer: 'employerCents',
  avc: 'avcCents',
};

/** A contribution's corrections as `correctionNotes` reads them: each made at a moment. */
const asNoted = (entry: {
  originalAmountCents: number;
  adjustments: { deltaCents: number; createdAt: Date }[];
}) => ({
  originalAmountCents: entry.originalAmountCents,
  adjustments: entry.adjustments.map((adjustment) => ({
    deltaCents: adjustment.deltaCents,
    createdAt: adjustment.createdAt.toISOString(),
  })),
});

export interface PortalDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * The member portal: a member's pension at a glance, their own contact
 * details, and their data as a readable file. Staff with reach read the summary too, so they see
 * what the member sees.
 */
/** A detail the member's record does not hold, said so rather than left blank. */
const NOT_GIVEN = 'Not given';

/**
 * One table of the readable copy: a row with its title (and, when the table is empty, the
 * sentence that says so), the row naming its columns, then its rows. The CSV writes these rows as
 * they are; the PDF reads the title as a heading (member-data.pdf.ts).
 */
function readableTable(
  title: string,
  empty: string,
  columns: string[],
  entries: string[][],
): string[][] {
  return [entries.length === 0 ? [title, empty] : [title], columns, ...entries];
}

export function createPortalService({ database, audit, now }: PortalDeps) {
  const reads = createPlatformReadLog(audit);

  /**
   * Everything held about the member, in words and Irish dates, as rows: the readable copy's one
   * source, for the CSV and the PDF alike. Audited as an export, in the format asked for.
   */
  async function readableExport(
    requester: ReturnType<typeof authorize>,
    id: string,
    format: 'csv' | 'pdf',
  ): Promise<{ rows: string[][]; exportedAt: Date }> {
    const withStaffNotes = isAllowed(requester, 'contribution.notes.read');
    return withActor(database, requester, async (tx) => {
      const member = authorizeRow(requester, 'member.export', await findMember(tx, id));
      const exportedAt = now();
      const today = todayInIreland(exportedAt);
      const record = await memberRecordOf(tx, member, today);
      const { scheme, employer, processing, documents, requests } = record;
      const paid = record.contributions;
      // A correction column only for a member with something corrected, as on their page.
      const anyCorrected = paid.some((entry) => entry.adjustments.length > 0);
      const choices = record.fundChoices;
      const { held, movements } = record.money;
      await audit.record(tx, requester, {
        action: 'member.exported',
        entityType: 'member',
        entityId: member.id,
        tenantId: member.brokerId,
        previousState: null,
        newState: { format },
      });
      const rows: string[][] = [
        ['Your pension data', `Exported ${momentInWords(exportedAt.toISOString())}`],
        [],
        ['Name', `${member.firstName} ${member.lastName}`],
        ['Date of birth', dateInWords(member.dateOfBirth)],
        ['E-mail address', member.email ?? NOT_GIVEN],
        ['Postal address', member.address ?? NOT_GIVEN],
        ['Date joined', dateInWords(member.dateJoined)],
        // A detail to read, not to add up: written as the member page writes money.
        ['Salary a year', formatCents(member.salaryCents)],
        ['Status', MEMBER_STATUS_NAMES[member.status as MemberStatus] ?? member.status],
        ['PPS number', 'Held encrypted; your broker can confirm it to you on request'],
        ['Scheme', scheme.name],
        ['Scheme type', SCHEME_TYPE_NAMES[scheme.type as SchemeType] ?? scheme.type],
        ['Employer', employer.name],
        [],
        ...readableTable(
          'Your contributions',
          'No contribution is recorded for you.',
          [
            'Month',
            'Paid by',
            'Amount (€)',
            'Received on',
            'Recorded',
            ...(anyCorrected ? ['Correction'] : []),
            ...(anyCorrected && withStaffNotes ? ['Why it was corrected (staff notes)'] : []),
          ],
          paid.map((entry) => [
            periodInWords(entry.period),
            CONTRIBUTION_KIND_LABELS_FOR_MEMBER[entry.kind as ContributionKind] ?? entry.kind,
            plainEuro(entry.amountCents),
            dateInWords(entry.receivedOn),
            momentInWords(entry.createdAt.toISOString()),
            ...(anyCorrected ? [correctionNotes(asNoted(entry)).join('; ')] : []),
            ...(anyCorrected && withStaffNotes
              ? [entry.adjustments.map((adjustment) => adjustment.reason).join('; ')]
              : []),
          ]),
        ),
        [],
        ...readableTable(
          'Your fund choices',
          // As the member's page says it (PensionValuePanel): where the money goes without a choice.
          scheme.defaultFundId === null
            ? 'You have not chosen your funds and the scheme has no default fund: your money waits, uninvested, until a fund choice is made.'
            : 'You have made no fund choice: your contributions go to the scheme’s default fund.',
          ['From', 'Fund', 'Percent'],
          choices.flatMap((choice) =>
            choice.lines.map((line) => [
              dateInWords(choice.effectiveFrom),
              line.fundName,
              String(line.percent),
            ]),
          ),
        ),
        ...(held === null
          ? []
          : [
              [],
              ...readableTable(
                `Your funds on ${dateInWords(today)}`,
                'Nothing is invested for you yet.',
                ['Fund', 'Units', 'Unit price (€)', 'Price of', 'Value (€)'],
                [
                  ...held.funds.map((fund) => [
                    fund.fundName,
                    formatDecimal6(fund.unitsMicro),
                    formatDecimal6(fund.priceMicro),
                    dateInWords(fund.priceOn),
                    plainEuro(fund.valueCents),
                  ]),
                  ['Waiting to be invested', '', '', '', plainEuro(held.uninvestedCents)],
                  ['Being switched between funds', '', '', '', plainEuro(held.switchingCents)],
                  ['Total value', '', '', '', plainEuro(held.valueCents)],
                ],
              ),
            ]),
        [],
        ...readableTable(
          'Movement of your units',
          'No units have been bought or sold for you.',
          ['Movement', 'Fund', 'Date', 'Units', 'Unit price (€)', 'Amount (€)'],
          movements.map((movement) => [
            MEMBER_TRANSACTION_KIND_LABELS[movement.kind as MemberTransactionKind] ?? movement.kind,
            movement.fundName,
            dateInWords(movement.dealtOn),
            formatDecimal6(movement.unitsMicro),
            formatDecimal6(movement.priceMicro),
            plainEuro(movement.amountCents),
          ]),
        ),
        [],
        ...readableTable(
          'What was done with your data',
          'Nothing is recorded yet.',
          ['What was done', 'By', 'When'],
          processing.map((entry) => [
            auditSummary(entry.action, entry.entityType),
            actorForMember(entry),
            momentInWords(entry.timestamp.toISOString()),
          ]),
        ),
        [],
        ...readableTable(
          'Documents about you',
          'No document about you is held.',
          ['Document', 'Version', 'Stored'],
          documents.map((document) => [
            document.title ??
              DOCUMENT_TYPE_LABELS[document.documentType as DocumentType] ??
              document.documentType,
            String(document.version),
            momentInWords(document.storedAt.toISOString()),
          ]),
        ),
        [],
        ...readableTable(
          'Your requests about your data',
          'You have made no request about your data.',
          ['Request', 'Received', 'Due by', 'Answer'],
          requests.map((request) => [
            DATA_REQUEST_KIND_NAMES[request.kind as DataRequestKind] ?? request.kind,
            dateInWords(request.receivedOn),
            dateInWords(request.dueOn),
            request.closedOn === null
              ? 'Not answered yet'
              : `${DATA_REQUEST_STATUS_NAMES[request.status as DataRequestStatus] ?? request.status} on ${dateInWords(request.closedOn)}${request.refusalCitation ? ` (${request.refusalCitation})` : ''}`,
          ]),
        ),
      ];
      return { rows, exportedAt };
    });
  }

  return {
    async summary(actor: ActorContext, id: string): Promise<MemberSummary> {
      authorize(actor, 'member.read');
      return withActor(database, actor, async (tx) => {
        const member = authorizeRow(actor, 'member.read', await findMember(tx, id));
        const scheme = await findScheme(tx, member.schemeId);
        const employer = await findEmployer(tx, member.employerId);
        if (!scheme || !employer) throw new Error('a live member without its scheme or employer');
        const year = Number(todayInIreland(now()).slice(0, 4));
        const allTime = noTotals();
        const taxYear = noTotals();
        const paid = await contributionsOfMember(tx, member.id);
        for (const entry of paid) {
          const field = FIELD[entry.kind];
          if (!field) continue;
          allTime[field] += entry.amountCents;
          allTime.totalCents += entry.amountCents;
          if (entry.period.startsWith(`${year}-`)) {
            taxYear[field] += entry.amountCents;
            taxYear.totalCents += entry.amountCents;
          }
        }
        await reads.viewed(tx, actor, {
          entityType: 'member',
          entityId: member.id,
          tenantId: member.brokerId,
        });
        return {
          memberId: member.id,
          name: `${member.firstName} ${member.lastName}`,
          scheme: {
            id: scheme.id,
            name: scheme.name,
            type: scheme.type,
            status: scheme.status as SchemeStatus,
          },
          employer: { id: employer.id, name: employer.name },
          allTime,
          taxYear: { ...taxYear, year },
          lastPeriod: paid.reduce<string | null>(
            (latest, entry) => (latest === null || entry.period > latest ? entry.period : latest),
            null,
          ),
        };
      });
    },

    /**
     * A member keeps their own postal and e-mail address up to date. Staff change any field
     * through PATCH /api/members/:id; this is the member's own, narrower door. The audit record
     * names the fields changed, never their values
     * (docs/decisions/0029-audit-states-hold-no-personal-data.md).
     */
    async updateContact(actor: ActorContext, id: string, change: ContactChange) {
      const member = authorize(actor, 'member.contact.update');
      return withActor(database, member, async (tx) => {
        const existing = authorizeRow(
          member,
          'member.contact.update',
          await findMemberForChange(tx, id),
        );
        refuseWoundUp({ status: existing.schemeStatus });
        const updated = await updateMemberContact(tx, existing.id, { ...change, updatedAt: now() });
        const fields = Object.keys(change).filter(
          (key) => change[key as keyof ContactChange] !== undefined,
        );
        await audit.record(tx, member, {
          action: 'member.contact_updated',
          entityType: 'member',
          entityId: existing.id,
          tenantId: existing.brokerId,
          previousState: null,
          newState: { fields },
        });
        return updated as { email: string | null; address: string | null };
      });
    },

    /**
     * "Download my data" as a file a person can read (GDPR Art. 15 and 20), holding what the JSON
     * export holds: every value in words, dates and times as the web shows them ("3 Apr 1985",
     * "3 Apr 2026, 14:05", Irish time; docs/decisions/0129-dates-shown-in-words.md), what was done
     * with the data in the audit log's own sentences (contracts/audit-text.ts), never a code.
     * Staff-only notes (the reasons given for corrections) stay out of the member's copy.
     */
    /** The member's data in words, as a CSV file to open in a spreadsheet (GDPR Arts 15 and 20). */
    async exportCsv(actor: ActorContext, id: string): Promise<string> {
      const requester = authorize(actor, 'member.export');
      const { rows } = await readableExport(requester, id, 'csv');
      return csvDocument(rows);
    },

    /**
     * The same data as a readable, tagged PDF (GDPR Art. 15): what a member reads, or the firm
     * sends, in answer to an access request (docs/decisions/0149-retention-and-erasure.md).
     */
    async exportPdf(actor: ActorContext, id: string): Promise<Buffer> {
      const requester = authorize(actor, 'member.export');
      const { rows, exportedAt } = await readableExport(requester, id, 'pdf');
      return memberDataPdf(rows, exportedAt);
    },
  };
}

export type PortalService = ReturnType<typeof createPortalService>;
