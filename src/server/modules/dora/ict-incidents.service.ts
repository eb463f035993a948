import { createId } from '@paralleldrive/cuid2';
import {
  type ClassificationFacts,
  classificationInWords,
  deadlineInWords,
  type IncidentClockFacts,
  incidentDeadlines,
  isMajor,
  REPORT_KIND_LABELS,
  type ReportKind,
  reportAllowed,
  thresholdsMet,
} from '../../../contracts/dora-rules.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { ictIncidents, platformIctIncidents } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import {
  type ActorContext,
  isPlatformActor,
  type PlatformActor,
} from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf } from '../../platform/tenancy/authorize.js';
import { findScheme } from '../schemes/index.js';
import {
  findFirm,
  findIncident,
  findPlatformIncident,
  type IctIncidentRow,
  type IctReportRow,
  insertIncident,
  insertPlatformIncident,
  insertReport,
  listIncidents,
  listPlatformIncidents,
  type PlatformIncidentRow,
  recurrencesOf,
  reportsOf,
  updateIncident,
} from './ict-incidents.data.js';
import type {
  IctClassificationInput,
  IctIncidentInput,
  IctIncidentQuery,
  IctIncidentUpdate,
  IctIncidentView,
  IctReportInput,
  IctReportTemplate,
  IctService,
} from './ict-incidents.schemas.js';
import { reportTemplate } from './ict-report.rules.js';

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

/** The facts the clocks of an incident run on (dora-rules.ts). */
export function clockFacts(
  row: IctIncidentRow,
  reports: readonly IctReportRow[],
): IncidentClockFacts {
  return {
    becameAwareAt: row.becameAwareAt,
    classifiedMajorAt: row.classifiedMajorAt,
    reclassifiedAt: row.reclassifiedAt,
    servicesRecoveredAt: row.servicesRecoveredAt,
    reports: reports.map((report) => ({
      kind: report.kind as ReportKind,
      submittedAt: report.submittedAt,
    })),
  };
}

function viewOf(
  row: IctIncidentRow,
  reports: readonly IctReportRow[],
  recurrences: readonly string[],
  now: Date,
): IctIncidentView {
  const criteria = row.criteria as ClassificationFacts | null;
  return {
    id: row.id,
    brokerId: row.brokerId,
    platformIncidentId: row.platformIncidentId,
    affectedBrokerIds: [row.brokerId],
    reference: row.reference,
    title: row.title,
    description: row.description,
    detectedAt: row.detectedAt.toISOString(),
    becameAwareAt: row.becameAwareAt.toISOString(),
    servicesAffected: row.servicesAffected as IctService[],
    schemeIds: row.schemeIds,
    recurrenceOf: row.recurrenceOf,
    recurrences: [...recurrences],
    rootCause: row.rootCause,
    servicesRecoveredAt: iso(row.servicesRecoveredAt),
    classification:
      criteria === null || row.major === null || row.classifiedAt === null
        ? null
        : {
            criteria,
            thresholdsMet: thresholdsMet(criteria),
            major: row.major,
            words: classificationInWords(criteria),
            classifiedAt: row.classifiedAt.toISOString(),
          },
    classifiedMajorAt: iso(row.classifiedMajorAt),
    reclassifiedAt: iso(row.reclassifiedAt),
    deadlines: incidentDeadlines(clockFacts(row, reports), now).map((deadline) => ({
      kind: deadline.kind,
      dueAt: iso(deadline.dueAt),
      status: deadline.status,
      words: deadlineInWords(deadline, now),
    })),
    reports: reports.map((report) => ({
      id: report.id,
      kind: report.kind as ReportKind,
      submittedAt: report.submittedAt.toISOString(),
      recordedBy: report.recordedBy,
      recordedAt: report.recordedAt.toISOString(),
    })),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The platform's own record of an incident that reached firms: no clock of its own. */
function platformViewOf(row: PlatformIncidentRow): IctIncidentView {
  return {
    id: row.id,
    brokerId: null,
    platformIncidentId: row.id,
    affectedBrokerIds: row.brokerIds,
    reference: null,
    title: row.title,
    description: row.description,
    detectedAt: row.detectedAt.toISOString(),
    becameAwareAt: row.becameAwareAt.toISOString(),
    servicesAffected: row.servicesAffected as IctService[],
    schemeIds: row.schemeIds,
    recurrenceOf: null,
    recurrences: [],
    rootCause: null,
    servicesRecoveredAt: null,
    classification: null,
    classifiedMajorAt: null,
    reclassifiedAt: null,
    deadlines: [],
    reports: [],
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.createdAt.toISOString(),
  };
}

/**
 * What the audit log keeps of an incident: ids, kinds, instants and the classification's yes/no
 * answers, never the title, description or root cause, which are free text
 * (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */
const auditState = (row: IctIncidentRow) => ({
  id: row.id,
  platformIncidentId: row.platformIncidentId,
  servicesAffected: row.servicesAffected,
  schemeIds: row.schemeIds,
  detectedAt: row.detectedAt.toISOString(),
  becameAwareAt: row.becameAwareAt.toISOString(),
  recurrenceOf: row.recurrenceOf,
  rootCauseGiven: row.rootCause !== null,
  servicesRecoveredAt: iso(row.servicesRecoveredAt),
  major: row.major,
  thresholdsMet: row.criteria === null ? null : thresholdsMet(row.criteria as ClassificationFacts),
  classifiedAt: iso(row.classifiedAt),
  classifiedMajorAt: iso(row.classifiedMajorAt),
  reclassifiedAt: iso(row.reclassifiedAt),
});

const refuse = (path: string, code: string, message: string): never => {
  throw new ValidationError([{ path, code, message }]);
};

function notInFuture(path: string, at: Date, now: Date) {
  if (at.getTime() > now.getTime()) {
    refuse(path, 'instant_in_future', 'Enter a date and time that has passed: not in the future');
  }
}

function detectedBeforeAware(detectedAt: Date, becameAwareAt: Date) {
  if (detectedAt.getTime() > becameAwareAt.getTime()) {
    refuse(
      'detectedAt',
      'detected_after_aware',
      'An incident is detected no later than the firm becomes aware of it: check both dates',
    );
  }
}

export interface IctIncidentsServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * The firm's register of ICT incidents (docs/decisions/0139-dora-ict-incidents.md; rules:
 * dora-rules.ts): recorded, classified against RTS (EU) 2024/1772, and, when major, reported to
 * the Pensions Authority on the clocks of RTS (EU) 2025/301. An incident of the platform itself
 * is recorded by its operator into the register of every firm it reached.
 */
export function createIctIncidentsService({ database, audit, now }: IctIncidentsServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /** The incidents' views, each with its reports and recurrences, read in two queries per firm. */
  async function viewsOf(tx: Transaction, rows: readonly IctIncidentRow[], at: Date) {
    const byFirm = new Map<string, IctIncidentRow[]>();
    for (const row of rows) byFirm.set(row.brokerId, [...(byFirm.get(row.brokerId) ?? []), row]);
    const reports = new Map<string, IctReportRow[]>();
    const recurrences = new Map<string, string[]>();
    for (const [brokerId, firmRows] of byFirm) {
      const ids = firmRows.map((row) => row.id);
      for (const report of await reportsOf(tx, brokerId, ids)) {
        reports.set(report.incidentId, [...(reports.get(report.incidentId) ?? []), report]);
      }
      for (const later of await recurrencesOf(tx, brokerId, ids)) {
        const of = later.recurrenceOf as string;
        recurrences.set(of, [...(recurrences.get(of) ?? []), later.id]);
      }
    }
    return rows.map((row) =>
      viewOf(row, reports.get(row.id) ?? [], recurrences.get(row.id) ?? [], at),
    );
  }

  async function viewOne(tx: Transaction, row: IctIncidentRow, at: Date) {
    return (await viewsOf(tx, [row], at))[0] as IctIncidentView;
  }

  /** Each scheme named must be a live scheme of the firm: a 400 on `schemeIds` otherwise. */
  async function checkSchemes(tx: Transaction, tenantId: string, schemeIds: readonly string[]) {
    for (const schemeId of schemeIds) {
      const scheme = await findScheme(tx, schemeId);
      if (scheme === undefined || scheme.brokerId !== tenantId) {
        refuse('schemeIds', 'unknown_scheme', 'Choose schemes of this firm');
      }
    }
  }

  /** The earlier incident a recurrence is linked to: the firm's, detected before this one. */
  async function checkRecurrence(
    tx: Transaction,
    recurrenceOf: string,
    detectedAt: Date,
    id?: string,
  ) {
    const earlier = await findIncident(tx, recurrenceOf);
    if (earlier === undefined || earlier.id === id) {
      refuse('recurrenceOf', 'unknown_incident', 'Choose an earlier incident of this firm');
    } else if (earlier.detectedAt.getTime() >= detectedAt.getTime()) {
      refuse(
        'recurrenceOf',
        'recurrence_not_earlier',
        'A recurrence follows the incident it recurs: choose one detected earlier',
      );
    }
  }

  async function recordChange(
    tx: Transaction,
    actor: ActorContext,
    action: 'ict_incident.updated' | 'ict_incident.classified' | 'ict_incident.reported',
    before: IctIncidentRow,
    after: IctIncidentRow,
    extra: Record<string, unknown> = {},
  ) {
    await audit.record(tx, actor, {
      action,
      entityType: 'ict_incident',
      entityId: after.id,
      tenantId: after.brokerId,
      previousState: auditState(before),
      newState: { ...auditState(after), ...extra },
    });
  }

  /**
   * An incident of the platform, recorded by its operator: the firms named and the firms of the
   * schemes named each get a copy in their register, with the schemes of theirs it reached. One
   * that reached no firm is kept in the platform's own record only.
   */
  async function recordPlatformIncident(
    actor: PlatformActor,
    input: IctIncidentInput,
  ): Promise<IctIncidentView> {
    return withActor(database, actor, async (tx) => {
      const at = now();
      const detectedAt = new Date(input.detectedAt);
      const becameAwareAt = new Date(input.becameAwareAt);
      notInFuture('becameAwareAt', becameAwareAt, at);
      detectedBeforeAware(detectedAt, becameAwareAt);
      if (input.recurrenceOf !== undefined) {
        refuse(
          'recurrenceOf',
          'recurrence_of_firm',
          'A recurrence is linked by the firm in its own register, not on the platform’s record',
        );
      }
      const schemesOfFirm = new Map<string, string[]>();
      for (const brokerId of input.brokerIds ?? []) {
        if ((await findFirm(tx, brokerId)) === undefined) {
          refuse('brokerIds', 'unknown_firm', 'Choose firms of the platform');
        }
        schemesOfFirm.set(brokerId, []);
      }
      for (const schemeId of input.schemeIds ?? []) {
        const scheme = await findScheme(tx, schemeId);
        if (scheme === undefined)
          refuse('schemeIds', 'unknown_scheme', 'Choose schemes of the platform');
        const brokerId = (scheme as { brokerId: string }).brokerId;
        schemesOfFirm.set(brokerId, [...(schemesOfFirm.get(brokerId) ?? []), schemeId]);
      }
      const platform = await insertPlatformIncident(tx, {
        id: createId(),
        title: input.title,
        description: input.description,
        detectedAt,
        becameAwareAt,
        servicesAffected: input.servicesAffected,
        brokerIds: [...schemesOfFirm.keys()],
        schemeIds: input.schemeIds ?? [],
        createdBy: actor.userId,
        createdAt: at,
      });
      for (const [brokerId, schemeIds] of schemesOfFirm) {
        const copy = await insertIncident(tx, {
          brokerId,
          id: createId(),
          platformIncidentId: platform.id,
          title: input.title,
          description: input.description,
          detectedAt,
          becameAwareAt,
          servicesAffected: input.servicesAffected,
          schemeIds,
          rootCause: input.rootCause ?? null,
          createdBy: actor.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, actor, {
          action: 'ict_incident.recorded',
          entityType: 'ict_incident',
          entityId: copy.id,
          tenantId: brokerId,
          previousState: null,
          newState: auditState(copy),
        });
      }
      await audit.record(tx, actor, {
        action: 'ict_incident.recorded',
        entityType: 'ict_incident',
        entityId: platform.id,
        tenantId: null,
        previousState: null,
        newState: { id: platform.id, brokerIds: platform.brokerIds, schemeIds: platform.schemeIds },
      });
      return platformViewOf(platform);
    });
  }

  /** The incident to take a step on, locked, in the actor's firm. */
  async function lockedIncident(
    tx: Transaction,
    actor: ActorContext,
    permission: 'ict_incident.update' | 'ict_incident.classify' | 'ict_incident.report',
    id: string,
  ) {
    return authorizeRow(actor, permission, await findIncident(tx, id, { forUpdate: true }));
  }

  return {
    async record(actor: ActorContext, input: IctIncidentInput): Promise<IctIncidentView> {
      const writer = authorize(actor, 'ict_incident.create');
      if (isPlatformActor(writer)) return recordPlatformIncident(writer, input);
      return withActor(database, writer, async (tx) => {
        const at = now();
        if (input.brokerIds !== undefined) {
          refuse(
            'brokerIds',
            'firms_by_platform',
            'Only the platform’s operator names the firms an incident reached: leave the firms out',
          );
        }
        const detectedAt = new Date(input.detectedAt);
        const becameAwareAt = new Date(input.becameAwareAt);
        notInFuture('becameAwareAt', becameAwareAt, at);
        detectedBeforeAware(detectedAt, becameAwareAt);
        const schemeIds = input.schemeIds ?? [];
        await checkSchemes(tx, writer.tenantId, schemeIds);
        if (input.recurrenceOf !== undefined) {
          await checkRecurrence(tx, input.recurrenceOf, detectedAt);
        }
        const incident = await insertIncident(tx, {
          brokerId: writer.tenantId,
          id: createId(),
          title: input.title,
          description: input.description,
          detectedAt,
          becameAwareAt,
          servicesAffected: input.servicesAffected,
          schemeIds,
          recurrenceOf: input.recurrenceOf ?? null,
          rootCause: input.rootCause ?? null,
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'ict_incident.recorded',
          entityType: 'ict_incident',
          entityId: incident.id,
          tenantId: incident.brokerId,
          previousState: null,
          newState: auditState(incident),
        });
        return viewOne(tx, incident, at);
      });
    },

    /** The firm's incidents; for platform staff, the platform's own records of incidents. */
    async list(actor: ActorContext, query: IctIncidentQuery) {
      authorize(actor, 'ict_incident.list');
      const bounds = boundsOf(actor, 'ict_incident.list');
      return withActor(database, actor, async (tx) => {
        const at = now();
        if (isPlatformActor(actor)) {
          const position = keyset(
            query,
            { at: platformIctIncidents.createdAt, id: platformIctIncidents.id },
            'desc',
          );
          const rows = await listPlatformIncidents(tx, position);
          await reads.listed(tx, actor, {
            entityType: 'ict_incident',
            filters: query,
            returned: rows.length,
          });
          const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
          return { items: page.items.map(platformViewOf), nextCursor: page.nextCursor };
        }
        const position = keyset(query, { at: ictIncidents.createdAt, id: ictIncidents.id }, 'desc');
        const rows = await listIncidents(tx, bounds.tenantId, position);
        const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
        return { items: await viewsOf(tx, page.items, at), nextCursor: page.nextCursor };
      });
    },

    async get(actor: ActorContext, id: string): Promise<IctIncidentView> {
      authorize(actor, 'ict_incident.read');
      return withActor(database, actor, async (tx) => {
        const found = await findIncident(tx, id);
        if (found === undefined && isPlatformActor(actor)) {
          const platform = await findPlatformIncident(tx, id);
          if (platform === undefined) throw new NotFoundError();
          await reads.viewed(tx, actor, {
            entityType: 'ict_incident',
            entityId: id,
            tenantId: null,
          });
          return platformViewOf(platform);
        }
        const incident = authorizeRow(actor, 'ict_incident.read', found);
        await reads.viewed(tx, actor, {
          entityType: 'ict_incident',
          entityId: incident.id,
          tenantId: incident.brokerId,
        });
        return viewOne(tx, incident, now());
      });
    },

    /** What the incident affects, its cause and its recovery; when the firm became aware stays. */
    async update(
      actor: ActorContext,
      id: string,
      input: IctIncidentUpdate,
    ): Promise<IctIncidentView> {
      const writer = authorize(actor, 'ict_incident.update');
      return withActor(database, writer, async (tx) => {
        const incident = await lockedIncident(tx, writer, 'ict_incident.update', id);
        const at = now();
        const detectedAt =
          input.detectedAt === undefined ? incident.detectedAt : new Date(input.detectedAt);
        detectedBeforeAware(detectedAt, incident.becameAwareAt);
        const recoveredAt =
          input.servicesRecoveredAt === undefined
            ? incident.servicesRecoveredAt
            : input.servicesRecoveredAt === null
              ? null
              : new Date(input.servicesRecoveredAt);
        if (recoveredAt !== null) {
          notInFuture('servicesRecoveredAt', recoveredAt, at);
          if (recoveredAt.getTime() < detectedAt.getTime()) {
            refuse(
              'servicesRecoveredAt',
              'recovered_before_detected',
              'Services recover after the incident is detected: check the date and time',
            );
          }
        }
        if (input.schemeIds !== undefined) await checkSchemes(tx, writer.tenantId, input.schemeIds);
        if (input.recurrenceOf)
          await checkRecurrence(tx, input.recurrenceOf, detectedAt, incident.id);
        const updated = await updateIncident(tx, incident, {
          ...(input.title === undefined ? {} : { title: input.title }),
          ...(input.description === undefined ? {} : { description: input.description }),
          detectedAt,
          ...(input.servicesAffected === undefined
            ? {}
            : { servicesAffected: input.servicesAffected }),
          ...(input.schemeIds === undefined ? {} : { schemeIds: input.schemeIds }),
          ...(input.recurrenceOf === undefined ? {} : { recurrenceOf: input.recurrenceOf }),
          ...(input.rootCause === undefined ? {} : { rootCause: input.rootCause }),
          servicesRecoveredAt: recoveredAt,
          updatedAt: at,
        });
        await recordChange(tx, writer, 'ict_incident.updated', incident, updated);
        return viewOne(tx, updated, at);
      });
    },

    /**
     * Classified against the criteria of RTS (EU) 2024/1772: the answer given must be the one the
     * criteria give (Art. 8(1)), or major for a recurrence, which with the incidents it recurs may
     * together be major (Art. 8(2)). The clock runs from the first classification as major; a
     * major incident classified not major is reclassified, and is not made major again.
     */
    async classify(
      actor: ActorContext,
      id: string,
      input: IctClassificationInput,
    ): Promise<IctIncidentView> {
      const writer = authorize(actor, 'ict_incident.classify');
      return withActor(database, writer, async (tx) => {
        const incident = await lockedIncident(tx, writer, 'ict_incident.classify', id);
        const byCriteria = isMajor(input.criteria);
        if (input.major !== byCriteria && !(input.major && incident.recurrenceOf !== null)) {
          refuse(
            'major',
            'classification_mismatch',
            `The criteria say otherwise. ${classificationInWords(input.criteria)}`,
          );
        }
        if (input.major && incident.reclassifiedAt !== null) {
          throw new ConflictError(
            'This incident was reclassified as not major: record a new incident linked to it as a recurrence',
          );
        }
        const at = now();
        const wasMajor = incident.major === true;
        const updated = await updateIncident(tx, incident, {
          criteria: input.criteria,
          major: input.major,
          classifiedAt: at,
          classifiedMajorAt: input.major
            ? (incident.classifiedMajorAt ?? at)
            : incident.classifiedMajorAt,
          reclassifiedAt: !input.major && wasMajor ? at : incident.reclassifiedAt,
          updatedAt: at,
        });
        await recordChange(tx, writer, 'ict_incident.classified', incident, updated);
        return viewOne(tx, updated, at);
      });
    },

    /** A report sent to the Pensions Authority, in the order the rules allow (RTS (EU) 2025/301 Art. 5). */
    async report(actor: ActorContext, id: string, input: IctReportInput): Promise<IctIncidentView> {
      const writer = authorize(actor, 'ict_incident.report');
      return withActor(database, writer, async (tx) => {
        const incident = await lockedIncident(tx, writer, 'ict_incident.report', id);
        const at = now();
        const reports = await reportsOf(tx, incident.brokerId, [incident.id]);
        const allowed = reportAllowed(input.kind, clockFacts(incident, reports), at);
        if (!allowed.ok) throw new ConflictError(allowed.reason);
        const submittedAt = new Date(input.submittedAt);
        notInFuture('submittedAt', submittedAt, at);
        const latest = reports.at(-1)?.submittedAt ?? incident.becameAwareAt;
        const after =
          input.kind === 'reclassified' &&
          incident.reclassifiedAt !== null &&
          incident.reclassifiedAt.getTime() > latest.getTime()
            ? incident.reclassifiedAt
            : latest;
        if (submittedAt.getTime() < after.getTime()) {
          refuse(
            'submittedAt',
            'submitted_too_early',
            `A ${REPORT_KIND_LABELS[input.kind].toLowerCase()} is sent after the firm became aware of the incident, after its earlier reports${input.kind === 'reclassified' ? ' and after the reclassification' : ''}: check the date and time`,
          );
        }
        const report = await insertReport(tx, {
          brokerId: incident.brokerId,
          id: createId(),
          incidentId: incident.id,
          kind: input.kind,
          submittedAt,
          recordedBy: writer.userId,
          recordedAt: at,
        });
        const updated = await updateIncident(tx, incident, { updatedAt: at });
        await recordChange(tx, writer, 'ict_incident.reported', incident, updated, {
          report: { id: report.id, kind: report.kind, submittedAt: submittedAt.toISOString() },
        });
        return viewOne(tx, updated, at);
      });
    },

    /** The report pre-filled in the fields of the template of ITS (EU) 2025/302. */
    async template(actor: ActorContext, id: string, kind: ReportKind): Promise<IctReportTemplate> {
      authorize(actor, 'ict_incident.template');
      return withActor(database, actor, async (tx) => {
        const incident = authorizeRow(actor, 'ict_incident.template', await findIncident(tx, id));
        const view = await viewOne(tx, incident, now());
        return reportTemplate(view, kind, (await findFirm(tx, incident.brokerId)) ?? null);
      });
    },
  };
}

export type IctIncidentsService = ReturnType<typeof createIctIncidentsService>;
