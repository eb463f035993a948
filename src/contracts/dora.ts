import { z } from 'zod';
import { instant } from './data-breaches.js';
import {
  CLASSIFICATION_CRITERIA,
  DEADLINE_KINDS,
  DEADLINE_STATUSES,
  REPORT_KINDS,
} from './dora-rules.js';
import { leiProblem } from './lei.js';
import { isoDate } from './members.js';
import { pageQuery } from './pages.js';
import { idText, text } from './text.js';

/**
 * The ICT incident register as the API reads and answers it
 * (docs/decisions/0139-dora-ict-incidents.md; rules: dora-rules.ts).
 */

/** The services of the platform and the firm an incident can affect. */
export const ICT_SERVICES = [
  'member_records',
  'contributions',
  'payments',
  'member_portal',
  'documents',
  'email',
  'reporting',
  'other',
] as const;
export type IctService = (typeof ICT_SERVICES)[number];

export const ICT_SERVICE_LABELS: Record<IctService, string> = {
  member_records: 'Member records',
  contributions: 'Contributions and investment',
  payments: 'Benefit payments and transfers',
  member_portal: 'Members’ online access',
  documents: 'Documents and statements',
  email: 'E-mail to members and employers',
  reporting: 'Reporting to the Pensions Authority and Revenue',
  other: 'Other',
};

const title = text({ max: 200 }).min(1, 'Give the incident a short title');
const description = text({ max: 4000, multiline: true }).min(
  1,
  'Say what happened and what it affects',
);
const servicesAffected = z
  .array(z.enum(ICT_SERVICES, { error: 'Choose a service from the list' }), {
    error: 'Choose the services affected',
  })
  .min(1, 'Choose at least one service affected')
  .max(ICT_SERVICES.length, 'Choose each service once')
  .refine((list) => new Set(list).size === list.length, 'Choose each service once');
const idList = (noun: string) =>
  z
    .array(idText, { error: `Give the ${noun} as a list` })
    .max(100, `Name at most 100 ${noun}`)
    .refine((list) => new Set(list).size === list.length, `Name each of the ${noun} once`);
const rootCause = text({ max: 2000, multiline: true }).min(
  1,
  'Say what the apparent root cause is, or leave it out',
);

export const ictIncidentInput = z.object({
  title,
  description,
  /** When the incident was detected. */
  detectedAt: instant,
  /** When the firm became aware of it: the initial notification is due within 24 hours of this. */
  becameAwareAt: instant,
  servicesAffected,
  /** The firm's schemes affected; for a platform incident, the schemes whose firms it reached. */
  schemeIds: idList('schemes').optional(),
  /** A platform incident only (SuperAdmin): the firms it affected, besides those of its schemes. */
  brokerIds: idList('firms').optional(),
  /** An earlier incident of the firm with the same apparent root cause. */
  recurrenceOf: idText.optional(),
  rootCause: rootCause.optional(),
});
export type IctIncidentInput = z.infer<typeof ictIncidentInput>;

export const ictIncidentUpdate = z.object({
  title: title.optional(),
  description: description.optional(),
  detectedAt: instant.optional(),
  servicesAffected: servicesAffected.optional(),
  schemeIds: idList('schemes').optional(),
  recurrenceOf: idText.nullable().optional(),
  rootCause: rootCause.nullable().optional(),
  /** When regular activities were recovered: an updated intermediate report falls due. */
  servicesRecoveredAt: instant.nullable().optional(),
});
export type IctIncidentUpdate = z.infer<typeof ictIncidentUpdate>;

const count = (what: string) =>
  z
    .number({ error: `Enter ${what} as a whole number` })
    .int(`Enter ${what} as a whole number`)
    .min(0, `Enter ${what} as a whole number`)
    .max(1_000_000_000, `Enter ${what} as a whole number`);
const hours = (what: string) =>
  z
    .number({ error: `Enter ${what} in hours` })
    .min(0, `Enter ${what} in hours, 0 or more`)
    .max(100_000, `Enter ${what} in hours`);

/** The facts of RTS (EU) 2024/1772 a classification weighs (dora-rules.ts, ClassificationFacts). */
export const classificationCriteria = z.object({
  criticalServicesAffected: z.boolean({ error: 'Say whether critical services are affected' }),
  membersAffected: count('the members affected'),
  membersOfService: count('the members using the services affected'),
  relevantMembersAffected: z.boolean({
    error: 'Say whether members identified as relevant are affected',
  }),
  reputationalImpact: z.boolean({ error: 'Say whether there is a reputational impact' }),
  durationHours: hours('how long the incident lasted'),
  downtimeHours: hours('how long services were down'),
  memberStatesAffected: z
    .number({ error: 'Enter how many Member States are affected' })
    .int('Enter how many Member States are affected')
    .min(1, 'Enter how many Member States are affected, 1 or more')
    .max(30, 'Enter how many Member States are affected'),
  dataLosses: z.boolean({ error: 'Say whether data was lost or accessed without authority' }),
  economicImpactCents: z
    .number({ error: 'Enter the costs and losses in cent' })
    .int('Enter the costs and losses in cent')
    .min(0, 'Enter the costs and losses in cent')
    .max(Number.MAX_SAFE_INTEGER, 'Enter the costs and losses in cent'),
});
export type ClassificationCriteria = z.infer<typeof classificationCriteria>;

export const ictClassificationInput = z.object({
  criteria: classificationCriteria,
  major: z.boolean({ error: 'Say whether the incident is major' }),
});
export type IctClassificationInput = z.infer<typeof ictClassificationInput>;

export const ictReportInput = z.object({
  kind: z.enum(REPORT_KINDS, { error: 'Choose the kind of report' }),
  /** When the report was sent to the Pensions Authority. */
  submittedAt: instant,
});
export type IctReportInput = z.infer<typeof ictReportInput>;

export const ictIncidentQuery = pageQuery;
export type IctIncidentQuery = z.infer<typeof ictIncidentQuery>;

export const reportKindParams = z.object({
  id: idText,
  kind: z.enum(REPORT_KINDS, { error: 'Choose the kind of report' }),
});

export const deadlineView = z.object({
  kind: z.enum(DEADLINE_KINDS),
  /** Null while it waits on an earlier report. */
  dueAt: z.string().nullable(),
  status: z.enum(DEADLINE_STATUSES),
  /** The clock in words (deadlineInWords). */
  words: z.string(),
});

export const classificationView = z.object({
  criteria: classificationCriteria,
  thresholdsMet: z.array(z.enum(CLASSIFICATION_CRITERIA)),
  major: z.boolean(),
  /** Why, in one sentence (classificationInWords). */
  words: z.string(),
  classifiedAt: z.string(),
});

export const ictReportView = z.object({
  id: z.string(),
  kind: z.enum(REPORT_KINDS),
  submittedAt: z.string(),
  recordedBy: z.string(),
  recordedAt: z.string(),
});

export const ictIncidentView = z.object({
  id: z.string(),
  /** The firm whose register holds it; null for the platform's own record of a platform incident. */
  brokerId: z.string().nullable(),
  /** Set on an incident the platform's operator recorded, in each firm it reached. */
  platformIncidentId: z.string().nullable(),
  /** The firms a platform incident reached; for a firm's own incident, that firm. */
  affectedBrokerIds: z.array(z.string()),
  /**
   * The firm's own reference, `ICT-2026-001`, which its reports name it by; null for the
   * platform's own record of a platform incident, which each firm's copy numbers in its register.
   */
  reference: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  detectedAt: z.string(),
  becameAwareAt: z.string(),
  servicesAffected: z.array(z.enum(ICT_SERVICES)),
  schemeIds: z.array(z.string()),
  recurrenceOf: z.string().nullable(),
  /** Later incidents of the firm linked to this one as recurrences. */
  recurrences: z.array(z.string()),
  rootCause: z.string().nullable(),
  servicesRecoveredAt: z.string().nullable(),
  classification: classificationView.nullable(),
  /** When it was first classified major; its clock runs from here. */
  classifiedMajorAt: z.string().nullable(),
  reclassifiedAt: z.string().nullable(),
  deadlines: z.array(deadlineView),
  reports: z.array(ictReportView),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type IctIncidentView = z.infer<typeof ictIncidentView>;

/** The report pre-filled in the fields of the common template of ITS (EU) 2025/302. */
export const ictReportTemplate = z.object({
  incidentId: z.string(),
  kind: z.enum(REPORT_KINDS),
  /** Where the Pensions Authority takes it. */
  sendTo: z.string(),
  sections: z.array(
    z.object({
      title: z.string(),
      fields: z.array(
        z.object({
          name: z.string(),
          /** The value as filled from the incident; null where the firm still has to fill it. */
          value: z.string().nullable(),
        }),
      ),
    }),
  ),
});
export type IctReportTemplate = z.infer<typeof ictReportTemplate>;

// The firm's other ICT providers ------------------------------------------------------------------

/** The ICT service types of ITS (EU) 2024/2956 Annex III. */
export const ICT_SERVICE_TYPES = {
  S01: 'ICT project management',
  S02: 'ICT development',
  S03: 'ICT help desk and first level support',
  S04: 'ICT security management services',
  S05: 'Provision of data',
  S06: 'Data analysis',
  S07: 'ICT, facilities and hosting services (excluding cloud services)',
  S08: 'Computation',
  S09: 'Non-cloud data storage',
  S10: 'Telecom carrier',
  S11: 'Network infrastructure',
  S12: 'Hardware and physical devices',
  S13: 'Software licencing (excluding SaaS)',
  S14: 'ICT operation management (including maintenance)',
  S15: 'ICT consulting',
  S16: 'ICT risk management',
  S17: 'Cloud services: IaaS',
  S18: 'Cloud services: PaaS',
  S19: 'Cloud services: SaaS',
} as const;
export type IctServiceType = keyof typeof ICT_SERVICE_TYPES;
const SERVICE_TYPE_CODES = Object.keys(ICT_SERVICE_TYPES) as [IctServiceType, ...IctServiceType[]];

export const PROVIDER_IDENTIFIER_TYPES = ['LEI', 'EUID'] as const;
export type ProviderIdentifierType = (typeof PROVIDER_IDENTIFIER_TYPES)[number];

/**
 * Why a provider's identifier cannot be an identifier of its type, or null when it can: an LEI
 * is held to `leiProblem` (B_05.01 c0010). An EUID has no single shape across the Member States'
 * business registers, so only its length is held to.
 */
export function providerIdentifierProblem(
  identifier: string | null,
  identifierType: string | null,
): string | null {
  if (identifierType !== 'LEI' || identifier === null) return null;
  return leiProblem(identifier);
}

const providerName = text({ max: 200 }).min(1, 'Enter the provider’s name');
const identifier = text({ max: 50 }).min(1, 'Enter the provider’s LEI or EUID, or leave it out');
const identifierType = z.enum(PROVIDER_IDENTIFIER_TYPES, { error: 'Choose LEI or EUID' });
const country = text({ max: 2 }).pipe(
  z.string().regex(/^[A-Z]{2}$/, 'Enter the country as its two capital letters, for example IE'),
);
const serviceType = z.enum(SERVICE_TYPE_CODES, {
  error: 'Choose the ICT service type, S01 to S19',
});
const contractReference = text({ max: 100 }).min(1, 'Enter the contract’s reference');

export const ictProviderInput = z.object({
  name: providerName,
  identifier: identifier.optional(),
  identifierType: identifierType.optional(),
  country,
  serviceType,
  contractReference,
  startedOn: isoDate,
  endedOn: isoDate.optional(),
  supportsCriticalFunction: z.boolean({
    error: 'Say whether the service supports a critical or important function',
  }),
});
export type IctProviderInput = z.infer<typeof ictProviderInput>;

export const ictProviderUpdate = z.object({
  name: providerName.optional(),
  identifier: identifier.nullable().optional(),
  identifierType: identifierType.nullable().optional(),
  country: country.optional(),
  serviceType: serviceType.optional(),
  contractReference: contractReference.optional(),
  startedOn: isoDate.optional(),
  endedOn: isoDate.nullable().optional(),
  supportsCriticalFunction: z.boolean().optional(),
});
export type IctProviderUpdate = z.infer<typeof ictProviderUpdate>;

export const ictProviderQuery = pageQuery;
export type IctProviderQuery = z.infer<typeof ictProviderQuery>;

export const ictProviderView = z.object({
  id: z.string(),
  brokerId: z.string(),
  name: z.string(),
  identifier: z.string().nullable(),
  identifierType: z.enum(PROVIDER_IDENTIFIER_TYPES).nullable(),
  country: z.string(),
  serviceType: serviceType,
  contractReference: z.string(),
  startedOn: z.string(),
  endedOn: z.string().nullable(),
  supportsCriticalFunction: z.boolean(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type IctProviderView = z.infer<typeof ictProviderView>;
