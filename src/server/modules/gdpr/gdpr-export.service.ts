import { actorForMember, auditSummary } from '../../../contracts/audit-text.js';
import { formatDecimal6 } from '../../../contracts/dc-money-rules.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { withActor } from '../../platform/db/with-actor.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, isAllowed } from '../../platform/tenancy/authorize.js';
import type { MemberExport } from '../members/index.js';
import { findMember, viewOf } from '../members/index.js';
import { accountsOfMember, memberRecordOf } from './gdpr-export.data.js';

export interface MemberExportDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * A member's right of access and to portability (GDPR Art. 15 and 20): everything held about one
 * member, for the member themself or their broker firm's BrokerAdmin, in its own file because it
 * reads across every module that keeps something about a member.
 */
export function createMemberExportService({ database, audit, now }: MemberExportDeps) {
  return {
    /**
     * GDPR Art. 15 and 20. The PPS number stays out of it (it leaves only through the audited
     * reveal); the export says it is on file.
     */
    async exportData(actor: ActorContext, id: string): Promise<MemberExport> {
      const requester = authorize(actor, 'member.export');
      const withStaffNotes = isAllowed(requester, 'contribution.notes.read');
      return withActor(database, requester, async (tx) => {
        const member = authorizeRow(requester, 'member.export', await findMember(tx, id));
        const accounts = await accountsOfMember(tx, member.id);
        const exportedAt = now();
        const today = todayInIreland(exportedAt);
        const record = await memberRecordOf(tx, member, today);
        const { scheme, employer, contributions, processing } = record;
        const { held, movements } = record.money;
        await audit.record(tx, requester, {
          action: 'member.exported',
          entityType: 'member',
          entityId: member.id,
          tenantId: member.brokerId,
          previousState: null,
          newState: null,
        });
        return {
          exportedAt: exportedAt.toISOString(),
          member: viewOf(member),
          ppsNumber: {
            onFile: true,
            note: 'Your PPS number is held encrypted. Your broker can confirm it to you on request.',
          },
          scheme: { id: scheme.id, name: scheme.name, type: scheme.type },
          employer: { id: employer.id, name: employer.name },
          contributions: contributions.map((entry) => ({
            id: entry.id,
            period: entry.period,
            kind: entry.kind,
            originalAmountCents: entry.originalAmountCents,
            amountCents: entry.amountCents,
            receivedOn: entry.receivedOn,
            recordedAt: entry.createdAt.toISOString(),
            // The reasons for corrections are staff notes: not in the member's own copy.
            adjustments: entry.adjustments.map((adjustment) => ({
              deltaCents: adjustment.deltaCents,
              ...(withStaffNotes ? { reason: adjustment.reason } : {}),
              recordedAt: adjustment.createdAt.toISOString(),
            })),
          })),
          fundChoices: record.fundChoices.map((allocation) => ({
            effectiveFrom: allocation.effectiveFrom,
            recordedAt: allocation.createdAt.toISOString(),
            allocations: allocation.lines.map((line) => ({
              fund: line.fundName,
              percent: line.percent,
            })),
          })),
          holdings:
            held === null
              ? null
              : {
                  on: today,
                  valueCents: held.valueCents,
                  funds: held.funds.map((fund) => ({
                    fund: fund.fundName,
                    units: formatDecimal6(fund.unitsMicro),
                    price: formatDecimal6(fund.priceMicro),
                    priceOn: fund.priceOn,
                    valueCents: fund.valueCents,
                  })),
                  uninvestedCents: held.uninvestedCents,
                  switchingCents: held.switchingCents,
                },
          unitTransactions: movements.map((movement) => ({
            on: movement.dealtOn,
            kind: movement.kind,
            fund: movement.fundName,
            units: formatDecimal6(movement.unitsMicro),
            price: formatDecimal6(movement.priceMicro),
            amountCents: movement.amountCents,
          })),
          accounts: accounts.map((account) => ({
            ...account,
            createdAt: account.createdAt.toISOString(),
          })),
          dataRequests: record.requests,
          documents: record.documents.map((document) => ({
            ...document,
            storedAt: document.storedAt.toISOString(),
          })),
          processing: processing.map((entry) => ({
            id: entry.id,
            action: entry.action,
            summary: auditSummary(entry.action, entry.entityType),
            actorType: entry.actorType,
            by: actorForMember(entry),
            timestamp: entry.timestamp.toISOString(),
          })),
        };
      });
    },
  };
}

export type MemberExportService = ReturnType<typeof createMemberExportService>;
