import { z } from 'zod';
import { DOCUMENT_TYPES, type DocumentType, SCAN_STATUSES } from './documents.js';
import {
  FITNESS_AND_PROBITY,
  KEY_FUNCTIONS,
  OBLIGATION_KINDS,
  ORA_TRIGGERS,
  POLICY_KINDS,
  TRUSTEE_KINDS,
} from './governance-rules.js';
import { isoDate } from './members.js';
import { pageQuery } from './pages.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { RULE_LABELS } from './rule-sources.js';
import { FILING_KINDS } from './scheme-year-rules.js';
import { emailAddress, idText, phoneNumber, text } from './text.js';

/**
 * The governance registers of a scheme (docs/decisions/0059-governance-rules.md; rules:
 * governance-rules.ts): trustees, key function holders, written policies and own-risk assessments,
 * with the scheme's compliance and the tenant's calendar. Shared by the API and the browser's
 * forms.
 */

const personName = text({ max: 200 }).min(1, FIELD_MESSAGES.name);
const dateOn = isoDate.refine((value) => value >= '1950-01-01', FIELD_MESSAGES.dateAfter1950);
const longText = (max: number) => text({ max, multiline: true });

const somethingToChange = (change: Record<string, unknown>) =>
  Object.values(change).some((value) => value !== undefined);

/** An end, when given, is not before the start (the API checks a change against the stored dates too). */
export const endNotBeforeStart = (entry: { appointedOn?: string; endedOn?: string | null }) =>
  !entry.appointedOn || !entry.endedOn || entry.endedOn >= entry.appointedOn;

// Links to documents (docs/decisions/0064-document-links-and-documents-tab.md).

/**
 * The document type each register's entries link to: a written policy's text, an ORA's report, a
 * key function holder's letter of appointment. A link to a document of another type is refused.
 */
export const LINKED_DOCUMENT_TYPE = {
  written_policy: 'written_policy',
  ora_report: 'ora_report',
  key_function_holder: 'kfh_appointment',
} as const satisfies Record<string, DocumentType>;
export type LinkingRegister = keyof typeof LINKED_DOCUMENT_TYPE;

/** A document id to link, or null to unlink. */
const documentLink = idText.nullable();

/** What an entry shows of its linked document: enough to name it and offer its download. */
export const linkedDocumentView = z.object({
  id: z.string(),
  documentType: z.enum(DOCUMENT_TYPES),
  filename: z.string(),
  title: z.string().nullable(),
  version: z.number().int(),
  scanStatus: z.enum(SCAN_STATUSES),
});
export type LinkedDocumentView = z.infer<typeof linkedDocumentView>;

/**
 * An entry's link: `documentId` and `document` name a live document; a document deleted since it
 * was linked reads as no document with `documentRemoved` true, so the register can say so.
 */
const linkFields = {
  documentId: z.string().nullable(),
  document: linkedDocumentView.nullable(),
  documentRemoved: z.boolean(),
};
export type DocumentLinkView = {
  documentId: string | null;
  document: LinkedDocumentView | null;
  documentRemoved: boolean;
};

// Trustees.

const trusteeKind = z.enum(TRUSTEE_KINDS, { error: FIELD_MESSAGES.trusteeKind });
const fitnessAndProbity = z.enum(FITNESS_AND_PROBITY, { error: FIELD_MESSAGES.fitnessAndProbity });
const directorCount = z
  .number({ error: FIELD_MESSAGES.directorCount })
  .int(FIELD_MESSAGES.directorCount)
  .min(0, FIELD_MESSAGES.directorCount)
  .max(1000, FIELD_MESSAGES.directorCount);

/**
 * A trustee's contact details: personal data, kept in the register and shown to those who read
 * it, never in an audit state or a log (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */
const trusteeContact = {
  email: emailAddress.nullable().optional(),
  phone: phoneNumber.nullable().optional(),
};
/**
 * Whether the trustee chairs the board (governance-rules.ts, chairRefusal): naming one chair takes
 * the chair from the trustee who held it.
 */
const chair = z.boolean({ error: FIELD_MESSAGES.chair });

export const trusteeInput = z
  .object({
    name: personName,
    kind: trusteeKind,
    /** For a corporate trustee: how many directors its board has. */
    directorCount: directorCount.nullable().optional(),
    appointedOn: dateOn,
    endedOn: dateOn.nullable().optional(),
    fitnessAndProbity: fitnessAndProbity.default('pending'),
    ...trusteeContact,
    chair: chair.default(false),
  })
  .refine(endNotBeforeStart, { path: ['endedOn'], message: FIELD_MESSAGES.endedBeforeAppointed })
  .refine((trustee) => trustee.kind === 'corporate' || trustee.directorCount == null, {
    path: ['directorCount'],
    message: FIELD_MESSAGES.directorsOfCorporateOnly,
  });
export type TrusteeInput = z.infer<typeof trusteeInput>;

export const trusteeChange = z
  .object({
    name: personName.optional(),
    kind: trusteeKind.optional(),
    directorCount: directorCount.nullable().optional(),
    appointedOn: dateOn.optional(),
    endedOn: dateOn.nullable().optional(),
    fitnessAndProbity: fitnessAndProbity.optional(),
    ...trusteeContact,
    chair: chair.optional(),
  })
  .refine(somethingToChange, { message: FIELD_MESSAGES.somethingToChange });
export type TrusteeChange = z.infer<typeof trusteeChange>;

export const trusteeView = z.object({
  id: z.string(),
  schemeId: z.string(),
  name: z.string(),
  kind: z.enum(TRUSTEE_KINDS),
  directorCount: z.number().nullable(),
  appointedOn: z.string(),
  endedOn: z.string().nullable(),
  fitnessAndProbity: z.enum(FITNESS_AND_PROBITY),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** Chairs the board today: named chair, and serving (governance-rules.ts, chairsOn). */
  chair: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TrusteeView = z.infer<typeof trusteeView>;

// Trustee training (scheme-year-rules.ts).

export const trusteeTrainingInput = z.object({
  completedOn: dateOn,
  topic: text({ max: 200 }).min(1, FIELD_MESSAGES.required).nullable().optional(),
  /** Which director of a corporate trustee was trained: required for one, refused for a person. */
  directorName: personName.nullable().optional(),
});
export type TrusteeTrainingInput = z.infer<typeof trusteeTrainingInput>;

export const trusteeTrainingView = z.object({
  id: z.string(),
  trusteeId: z.string(),
  schemeId: z.string(),
  completedOn: z.string(),
  topic: z.string().nullable(),
  directorName: z.string().nullable(),
  createdAt: z.string(),
});
export type TrusteeTrainingView = z.infer<typeof trusteeTrainingView>;

// Filings of the scheme year (scheme-year-rules.ts).

const filingKind = z.enum(FILING_KINDS, { error: 'Choose which filing it is' });

export const filingInput = z
  .object({
    kind: filingKind,
    /** The last day of the period it covers: the scheme year's end, or 31 December. */
    periodEnd: dateOn,
    completedOn: dateOn.nullable().optional(),
    audited: z.boolean({ error: 'Say whether it was audited' }).nullable().optional(),
  })
  .refine((filing) => filing.kind === 'annual_report' || filing.audited == null, {
    path: ['audited'],
    message: 'Only an annual report is audited',
  });
export type FilingInput = z.infer<typeof filingInput>;

export const filingChange = z
  .object({
    periodEnd: dateOn.optional(),
    completedOn: dateOn.nullable().optional(),
    audited: z.boolean({ error: 'Say whether it was audited' }).nullable().optional(),
  })
  .refine(somethingToChange, { message: FIELD_MESSAGES.somethingToChange });
export type FilingChange = z.infer<typeof filingChange>;

export const filingView = z.object({
  id: z.string(),
  schemeId: z.string(),
  kind: z.enum(FILING_KINDS),
  periodEnd: z.string(),
  /** When it falls due (scheme-year-rules.ts). */
  dueOn: z.string(),
  completedOn: z.string().nullable(),
  audited: z.boolean().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FilingView = z.infer<typeof filingView>;

// Conflicts of interest (guidance, not law: the Pensions Authority's Code of Practice for trustees
// asks trustees to identify, record and manage them). An entry is never deleted: it is closed.

const conflictInterest = longText(2000).min(1, 'Describe the interest or conflict');
const conflictManagement = longText(2000).min(1, 'Describe how the conflict is managed');

/** A closing day, when given, is not before the day the interest was declared. */
const closedNotBeforeDeclared = (entry: { declaredOn: string; closedOn?: string | null }) =>
  !entry.closedOn || entry.closedOn >= entry.declaredOn;

export const conflictInput = z
  .object({
    /** Who has the interest: a trustee, a key function holder, an adviser. */
    personName: text({ max: 200 }).min(1, 'Enter the name of the person who has the interest'),
    /** Where that person is a trustee: one of this scheme's trustees. */
    trusteeId: idText.nullable().optional(),
    interest: conflictInterest,
    declaredOn: dateOn,
    /** How it is managed ("Abstains from votes on the fund range"); often recorded later. */
    management: conflictManagement.nullable().optional(),
    closedOn: dateOn.nullable().optional(),
  })
  .refine(closedNotBeforeDeclared, {
    path: ['closedOn'],
    message: 'The day it was closed cannot be before the day it was declared',
  });
export type ConflictInput = z.infer<typeof conflictInput>;

/** How the conflict is managed, and its closing (null opens it again); nothing else changes. */
export const conflictChange = z
  .object({
    management: conflictManagement.nullable().optional(),
    closedOn: dateOn.nullable().optional(),
  })
  .refine(somethingToChange, { message: FIELD_MESSAGES.somethingToChange });
export type ConflictChange = z.infer<typeof conflictChange>;

export const conflictView = z.object({
  id: z.string(),
  schemeId: z.string(),
  personName: z.string(),
  trusteeId: z.string().nullable(),
  interest: z.string(),
  declaredOn: z.string(),
  management: z.string().nullable(),
  /** The day it ended; a closed entry stays in the register. */
  closedOn: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ConflictView = z.infer<typeof conflictView>;

// Key function holders.

const keyFunction = z.enum(KEY_FUNCTIONS, { error: FIELD_MESSAGES.keyFunction });
const conflictsProtocol = longText(4000);

export const keyFunctionHolderInput = z
  .object({
    function: keyFunction,
    holderName: personName,
    holderEmail: emailAddress.nullable().optional(),
    appointedOn: dateOn,
    endedOn: dateOn.nullable().optional(),
    fitnessAndProbity: fitnessAndProbity.default('pending'),
    /** The holder also carries out the same function for the employer (Art. 24). */
    alsoServesEmployer: z.boolean().default(false),
    /** How conflicts of interest with the employer are prevented or managed, in the trustees' words. */
    conflictsProtocol: conflictsProtocol.nullable().optional(),
    /** The day the appointment was notified to the Pensions Authority (Art. 22). */
    notifiedOn: dateOn.nullable().optional(),
    /** The letter of appointment (a kfh_appointment document of the scheme). */
    documentId: documentLink.optional(),
  })
  .refine(endNotBeforeStart, { path: ['endedOn'], message: FIELD_MESSAGES.endedBeforeAppointed });
export type KeyFunctionHolderInput = z.infer<typeof keyFunctionHolderInput>;

export const keyFunctionHolderChange = z
  .object({
    function: keyFunction.optional(),
    holderName: personName.optional(),
    holderEmail: emailAddress.nullable().optional(),
    appointedOn: dateOn.optional(),
    endedOn: dateOn.nullable().optional(),
    fitnessAndProbity: fitnessAndProbity.optional(),
    alsoServesEmployer: z.boolean().optional(),
    conflictsProtocol: conflictsProtocol.nullable().optional(),
    notifiedOn: dateOn.nullable().optional(),
    documentId: documentLink.optional(),
  })
  .refine(somethingToChange, { message: FIELD_MESSAGES.somethingToChange });
export type KeyFunctionHolderChange = z.infer<typeof keyFunctionHolderChange>;

export const keyFunctionHolderView = z.object({
  id: z.string(),
  schemeId: z.string(),
  function: z.enum(KEY_FUNCTIONS),
  holderName: z.string(),
  holderEmail: z.string().nullable(),
  appointedOn: z.string(),
  endedOn: z.string().nullable(),
  fitnessAndProbity: z.enum(FITNESS_AND_PROBITY),
  alsoServesEmployer: z.boolean(),
  conflictsProtocol: z.string().nullable(),
  /** The day the appointment was notified to the Pensions Authority, if it has been. */
  notifiedOn: z.string().nullable(),
  ...linkFields,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KeyFunctionHolderView = z.infer<typeof keyFunctionHolderView>;

// Written policies.

const policyKind = z.enum(POLICY_KINDS, { error: FIELD_MESSAGES.policyKind });
const policyTitle = text({ max: 200 }).min(1, FIELD_MESSAGES.title);
const policyVersion = text({ max: 40 }).min(1, FIELD_MESSAGES.version);

export const POLICY_STATUSES = ['draft', 'approved', 'superseded'] as const;

/** A policy's status in words, on the register and in the evidence pack's summary. */
export const POLICY_STATUS_NAMES: Record<(typeof POLICY_STATUSES)[number], string> = {
  draft: 'Draft: not yet approved',
  approved: 'Approved: in use',
  superseded: 'Superseded',
};

/** A new policy, or a new version of one, starts as a draft: the trustees approve it before use. */
export const policyInput = z.object({
  kind: policyKind,
  title: policyTitle,
  version: policyVersion,
  /** The policy's text (a written_policy document of the scheme). */
  documentId: documentLink.optional(),
});
export type PolicyInput = z.infer<typeof policyInput>;

/**
 * Only a draft's title and version change; an approved version is replaced by approving a new one.
 * The link to its document may change on the version in use too (the signed copy often comes after
 * the approval), never on a superseded one.
 */
export const policyChange = z
  .object({
    title: policyTitle.optional(),
    version: policyVersion.optional(),
    documentId: documentLink.optional(),
  })
  .refine(somethingToChange, { message: FIELD_MESSAGES.somethingToChange });
export type PolicyChange = z.infer<typeof policyChange>;

/**
 * The trustees' approval of a written policy: the day, and where their decision is recorded (the
 * meeting or the minute: "Board meeting 12 March 2026, minute 4.2"), which a reviewer turns to.
 */
export const policyApproval = z.object({
  approvedOn: dateOn,
  approvalReference: text({ max: 200 }).min(1, FIELD_MESSAGES.approvalReference),
});
export type PolicyApproval = z.infer<typeof policyApproval>;

export const significantChangeInput = z.object({
  occurredOn: dateOn,
  description: longText(2000).min(1, FIELD_MESSAGES.describeChange),
});
export type SignificantChangeInput = z.infer<typeof significantChangeInput>;

export const policyView = z.object({
  id: z.string(),
  schemeId: z.string(),
  kind: z.enum(POLICY_KINDS),
  title: z.string(),
  version: z.string(),
  status: z.enum(POLICY_STATUSES),
  approvedOn: z.string().nullable(),
  /**
   * The meeting or minute of the trustees' decision; null for a draft, and for an approval
   * recorded before the reference was asked for.
   */
  approvalReference: z.string().nullable(),
  /** Three years from when the last review was due; earlier after a significant change. */
  nextReviewDue: z.string().nullable(),
  /** The latest significant change recorded since this version was approved. */
  significantChangeOn: z.string().nullable(),
  ...linkFields,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PolicyView = z.infer<typeof policyView>;

export const significantChangeView = z.object({
  id: z.string(),
  schemeId: z.string(),
  policyId: z.string().nullable(),
  occurredOn: z.string(),
  description: z.string(),
  createdAt: z.string(),
});
export type SignificantChangeView = z.infer<typeof significantChangeView>;

// Own-risk assessments.

const oraTrigger = z.enum(ORA_TRIGGERS, { error: FIELD_MESSAGES.oraTrigger });

export const oraReportInput = z.object({
  performedOn: dateOn,
  trigger: oraTrigger,
  summary: longText(8000).nullable().optional(),
  /** The report itself (an ora_report document of the scheme). */
  documentId: documentLink.optional(),
});
export type OraReportInput = z.infer<typeof oraReportInput>;

export const oraReportChange = z
  .object({
    performedOn: dateOn.optional(),
    trigger: oraTrigger.optional(),
    summary: longText(8000).nullable().optional(),
    documentId: documentLink.optional(),
  })
  .refine(somethingToChange, { message: FIELD_MESSAGES.somethingToChange });
export type OraReportChange = z.infer<typeof oraReportChange>;

export const oraReportView = z.object({
  id: z.string(),
  schemeId: z.string(),
  performedOn: z.string(),
  trigger: z.enum(ORA_TRIGGERS),
  summary: z.string().nullable(),
  /** At least every three years, counted from when the last one was due. */
  nextDue: z.string(),
  ...linkFields,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OraReportView = z.infer<typeof oraReportView>;

// Lists.

export const registerListQuery = pageQuery.extend({
  /** Ended appointments and superseded versions are history: shown only when asked for. */
  includeHistory: z
    .enum(['true', 'false'], { error: 'Use true or false' })
    .optional()
    .transform((value) => value === 'true'),
});
export type RegisterListQuery = z.infer<typeof registerListQuery>;

// Compliance.

export const OBLIGATION_STATUSES = ['ok', 'due_soon', 'overdue', 'incomplete'] as const;

export const obligationView = z.object({
  kind: z.enum(OBLIGATION_KINDS),
  subjectId: z.string().optional(),
  dueOn: z.string().optional(),
  status: z.enum(OBLIGATION_STATUSES),
  reason: z.string(),
  /** Law, guidance or product policy (rule-sources.ts), and where the duty comes from. */
  label: z.enum(RULE_LABELS),
  citation: z.string(),
});
export type ObligationView = z.infer<typeof obligationView>;

export const complianceView = z.object({
  schemeId: z.string(),
  status: z.enum(OBLIGATION_STATUSES),
  obligations: z.array(obligationView),
  /** Whether DORA applies to the scheme (dora-rules.ts, doraScope). */
  dora: z.object({
    applies: z.boolean(),
    members: z.number().int(),
    reason: z.string(),
    label: z.enum(RULE_LABELS),
    citation: z.string(),
  }),
});
export type ComplianceView = z.infer<typeof complianceView>;

/** The calendar's window: at most about two years at once. */
export const CALENDAR_MAX_DAYS = 750;

export const calendarQuery = pageQuery
  .extend({
    from: isoDate,
    to: isoDate,
    employerId: idText.optional(),
  })
  .refine((query) => query.to >= query.from, {
    path: ['to'],
    message: FIELD_MESSAGES.endAfterStart,
  });
export type CalendarQuery = z.infer<typeof calendarQuery>;

export const calendarEntryView = obligationView.extend({
  dueOn: z.string(),
  schemeId: z.string(),
  schemeName: z.string(),
  employerId: z.string(),
  employerName: z.string(),
});
export type CalendarEntryView = z.infer<typeof calendarEntryView>;

/**
 * The broker's governance dashboard: every scheme by standing, and the due dates a person is
 * reminded of (`isReminder` in governance-rules.ts).
 */
export const governanceDashboardView = z.object({
  counts: z.object({
    ok: z.number(),
    due_soon: z.number(),
    overdue: z.number(),
    incomplete: z.number(),
  }),
  schemes: z.array(
    z.object({
      schemeId: z.string(),
      schemeName: z.string(),
      employerId: z.string(),
      employerName: z.string(),
      status: z.enum(OBLIGATION_STATUSES),
      /** The obligations that are not ok, worst first. */
      attention: z.array(obligationView),
    }),
  ),
  /** The due dates a person is reminded of: overdue or due soon, soonest first. */
  upcoming: z.array(calendarEntryView),
});
export type GovernanceDashboardView = z.infer<typeof governanceDashboardView>;

export const historyEntryView = z.object({
  /** The audit record this entry is read from. */
  auditRecordId: z.string(),
  action: z.string(),
  at: z.string(),
  actorRole: z.string().nullable(),
  changedFields: z.array(z.string()),
});
export type HistoryEntryView = z.infer<typeof historyEntryView>;
