import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { brokers } from './tenancy.tables.js';

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * An incident of the platform itself, as its operator recorded it
 * (docs/decisions/0139-dora-ict-incidents.md): the firms it reached each get a copy of it in their
 * own register, which their staff classify and report. Platform staff only.
 */
export const platformIctIncidents = pgTable(
  'platform_ict_incidents',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    detectedAt: at('detected_at').notNull(),
    becameAwareAt: at('became_aware_at').notNull(),
    servicesAffected: text('services_affected').array().notNull(),
    brokerIds: text('broker_ids').array().notNull(),
    schemeIds: text('scheme_ids').array().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    index('platform_ict_incidents_recorded_idx').on(table.createdAt, table.id),
    check(
      'platform_ict_incidents_title_length',
      sql`char_length(${table.title}) between 1 and 200`,
    ),
  ],
);

/**
 * A firm's register of ICT incidents (DORA Art. 17): every incident recorded, classified against
 * RTS (EU) 2024/1772, and, when major, reported. The deadlines are not stored: they follow from
 * awareness, classification and the reports made (src/contracts/dora-rules.ts).
 */
export const ictIncidents = pgTable(
  'ict_incidents',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    /**
     * Set on the copy of a platform incident: the id of its platform_ict_incidents row, without a
     * foreign key, since a tenant table references only tenant tables and brokers.
     */
    platformIncidentId: text('platform_incident_id'),
    /**
     * The firm's own reference for the incident, `ICT-<year>-<number>`, the number counting the
     * firm's incidents recorded in that year in Ireland: what its reports name it by
     * (docs/decisions/0139-dora-ict-incidents.md).
     */
    reference: text('reference').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    detectedAt: at('detected_at').notNull(),
    becameAwareAt: at('became_aware_at').notNull(),
    servicesAffected: text('services_affected').array().notNull(),
    schemeIds: text('scheme_ids').array().notNull(),
    /** An earlier incident of the firm with the same apparent root cause (RTS Art. 8(2)). */
    recurrenceOf: text('recurrence_of'),
    rootCause: text('root_cause'),
    servicesRecoveredAt: at('services_recovered_at'),
    /** The facts the latest classification weighed; null until classified. */
    criteria: jsonb('criteria'),
    major: boolean('major'),
    classifiedAt: at('classified_at'),
    /** When it was first classified major: the initial notification's clock runs from here. */
    classifiedMajorAt: at('classified_major_at'),
    /** When it was reclassified as not major after being major. */
    reclassifiedAt: at('reclassified_at'),
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (table) => [
    primaryKey({ name: 'ict_incidents_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'ict_incidents_recurrence_of_fk',
      columns: [table.brokerId, table.recurrenceOf],
      foreignColumns: [table.brokerId, table.id],
    }),
    index('ict_incidents_recorded_idx').on(table.brokerId, table.createdAt, table.id),
    uniqueIndex('ict_incidents_reference_key').on(table.brokerId, table.reference),
    index('ict_incidents_recurrence_idx').on(table.brokerId, table.recurrenceOf),
    check('ict_incidents_title_length', sql`char_length(${table.title}) between 1 and 200`),
    check(
      'ict_incidents_detected_before_aware',
      sql`${table.detectedAt} <= ${table.becameAwareAt}`,
    ),
    check(
      'ict_incidents_classified_whole',
      sql`(${table.classifiedAt} is null) = (${table.major} is null) and (${table.classifiedAt} is null) = (${table.criteria} is null)`,
    ),
    check(
      'ict_incidents_reclassified_after_major',
      sql`${table.reclassifiedAt} is null or (${table.classifiedMajorAt} is not null and ${table.major} = false)`,
    ),
  ],
);

/** The reports of a major incident sent to the Pensions Authority (RTS (EU) 2025/301 Art. 5). */
export const ictIncidentReports = pgTable(
  'ict_incident_reports',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    incidentId: text('incident_id').notNull(),
    kind: text('kind').notNull(),
    submittedAt: at('submitted_at').notNull(),
    recordedBy: text('recorded_by').notNull(),
    recordedAt: at('recorded_at').notNull(),
  },
  (table) => [
    primaryKey({ name: 'ict_incident_reports_pkey', columns: [table.brokerId, table.id] }),
    foreignKey({
      name: 'ict_incident_reports_incident_fk',
      columns: [table.brokerId, table.incidentId],
      foreignColumns: [ictIncidents.brokerId, ictIncidents.id],
    }),
    index('ict_incident_reports_incident_idx').on(table.brokerId, table.incidentId),
    check(
      'ict_incident_reports_kind',
      sql`${table.kind} in ('initial', 'intermediate', 'final', 'reclassified')`,
    ),
  ],
);

/**
 * Each reminder of a major incident's report coming due (docs/decisions/0139-dora-ict-incidents.md,
 * "Reminders"): one row per incident, deadline and its due instant, stage and person reminded, a
 * BrokerAdmin's account or a trustee of a scheme the incident reached, so a reminder goes out at
 * most once however often, or on however many instances, the job runs. The due instant is part of
 * the key because a later intermediate report moves the final report's, reminded afresh.
 */
export const ictIncidentReminders = pgTable(
  'ict_incident_reminders',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    incidentId: text('incident_id').notNull(),
    deadlineKind: text('deadline_kind').notNull(),
    dueAt: at('due_at').notNull(),
    stage: text('stage').notNull(),
    /** `user` (a BrokerAdmin's account) or `trustee`, and the id of that record. */
    recipientKind: text('recipient_kind').notNull(),
    recipientId: text('recipient_id').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    primaryKey({ name: 'ict_incident_reminders_pkey', columns: [table.brokerId, table.id] }),
    uniqueIndex('ict_incident_reminders_once').on(
      table.brokerId,
      table.incidentId,
      table.deadlineKind,
      table.dueAt,
      table.stage,
      table.recipientKind,
      table.recipientId,
    ),
    foreignKey({
      name: 'ict_incident_reminders_incident_fk',
      columns: [table.brokerId, table.incidentId],
      foreignColumns: [ictIncidents.brokerId, ictIncidents.id],
    }),
    check(
      'ict_incident_reminders_deadline_kind',
      sql`${table.deadlineKind} in ('initial', 'intermediate', 'intermediate_update', 'final', 'reclassified')`,
    ),
    check(
      'ict_incident_reminders_stage_known',
      sql`${table.stage} in ('hours_24', 'hours_2', 'minutes_30', 'overdue')`,
    ),
    check(
      'ict_incident_reminders_recipient_kind',
      sql`${table.recipientKind} in ('user', 'trustee')`,
    ),
  ],
);

/**
 * A firm's register of its ICT third-party service providers other than this platform (DORA
 * Art. 28(3)): who they are, what ICT service they provide under which contract, and whether it
 * supports a critical or important function. The platform and its own vendors are not kept here.
 */
export const ictProviders = pgTable(
  'ict_providers',
  {
    brokerId: text('broker_id')
      .notNull()
      .references(() => brokers.id),
    id: text('id').notNull(),
    name: text('name').notNull(),
    /** Its LEI or EUID, where known, as `identifierType` says. */
    identifier: text('identifier'),
    identifierType: text('identifier_type'),
    /** ISO 3166-1 alpha-2 of its headquarters. */
    country: text('country').notNull(),
    /** The ICT service type of ITS (EU) 2024/2956 Annex III, S01 to S19. */
    serviceType: text('service_type').notNull(),
    contractReference: text('contract_reference').notNull(),
    startedOn: date('started_on', { mode: 'string' }).notNull(),
    endedOn: date('ended_on', { mode: 'string' }),
    supportsCriticalFunction: boolean('supports_critical_function').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (table) => [
    primaryKey({ name: 'ict_providers_pkey', columns: [table.brokerId, table.id] }),
    index('ict_providers_recorded_idx').on(table.brokerId, table.createdAt, table.id),
    check('ict_providers_name_length', sql`char_length(${table.name}) between 1 and 200`),
    check('ict_providers_service_type', sql`${table.serviceType} ~ '^S(0[1-9]|1[0-9])$'`),
    check('ict_providers_country', sql`${table.country} ~ '^[A-Z]{2}$'`),
    check(
      'ict_providers_identifier_whole',
      sql`(${table.identifier} is null) = (${table.identifierType} is null)`,
    ),
    check(
      'ict_providers_ended_after_start',
      sql`${table.endedOn} is null or ${table.endedOn} >= ${table.startedOn}`,
    ),
  ],
);
