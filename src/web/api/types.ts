import type { Role } from '../../contracts/roles';

export type { Role };

/** The shapes the API answers with (its OpenAPI description at /openapi.json is the reference). */

export interface SessionUser {
  id: string;
  email: string;
  role: Role;
  brokerId: string | null;
  employerId: string | null;
}

/** 'invited' until the person sets their password through the invitation (issue 21). */
export type AccountState = 'invited' | 'active' | 'deactivated';

export interface Me extends SessionUser {
  name: string;
  memberId: string | null;
  status: AccountState;
  /** The broker firm's name, for the header; null for the platform's SuperAdmin. */
  firmName: string | null;
  employerName: string | null;
}

/** `GET /api/overview`: the work waiting on a home page (issue 21, item 9). */
export interface Overview {
  duePeriod: string;
  schemes: Array<{
    id: string;
    name: string;
    type: string;
    employerId: string;
    employerName: string;
    memberCount: number;
    lastPeriod: string | null;
    needs: Array<'no_members' | 'no_funds' | 'contributions_due'>;
  }>;
  recentUploads: Array<{
    id: string;
    schemeId: string;
    schemeName: string;
    kind: 'members' | 'contributions';
    status: string;
    rowsWritten: number;
    issueCount: number;
    createdAt: string;
  }>;
  membersNeedingAttention: Array<{
    id: string;
    name: string;
    schemeId: string;
    schemeName: string;
    needs: Array<'no_email' | 'missed_last_period'>;
  }>;
}

export interface Broker {
  id: string;
  name: string;
  createdAt: string;
}

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  brokerId: string | null;
  employerId: string | null;
  memberId: string | null;
  status: AccountState;
  /** While invited: when the invitation link stops working (a resend renews it). */
  invitedUntil: string | null;
  createdAt: string;
}

export interface Employer {
  id: string;
  brokerId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export type SchemeType = 'DB' | 'DC' | 'PRSA' | 'RAC';
export interface Scheme {
  id: string;
  brokerId: string;
  employerId: string;
  name: string;
  type: SchemeType;
  createdAt: string;
}

export type MemberStatus = 'active' | 'deferred' | 'retired' | 'left';
export interface Member {
  id: string;
  brokerId: string;
  employerId: string;
  schemeId: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email: string | null;
  address: string | null;
  dateJoined: string;
  salaryCents: number;
  status: MemberStatus;
  ppsNumberOnFile: true;
  createdAt: string;
  updatedAt: string;
}

export type ContributionKind = 'employee' | 'employer' | 'avc';
export interface Contribution {
  id: string;
  memberId: string;
  period: string;
  kind: ContributionKind;
  amountCents: number;
  originalAmountCents: number;
  importId: string | null;
  createdAt: string;
  /** `reason` is a staff note: absent from what a Member reads. */
  adjustments: Array<{ id: string; deltaCents: number; reason?: string; createdAt: string }>;
}

export interface Fund {
  id: string;
  schemeId: string;
  name: string;
  isin: string | null;
  closed: boolean;
}

export interface FundChoice {
  id: string;
  memberId: string;
  effectiveFrom: string;
  current: boolean;
  createdAt: string;
  allocations: Array<{ fundId: string; fundName: string; percent: number }>;
}

export interface AuditRecord {
  id: string;
  actorId: string;
  actorType: string;
  action: string;
  entityType: string;
  entityId: string;
  ipAddress: string;
  timestamp: string;
  previousState: unknown;
  newState: unknown;
}

export type ImportKind = 'members' | 'contributions';
export type ImportStatus = 'running' | 'succeeded' | 'rejected' | 'failed';

/** What is wrong with an uploaded file; `line` and `column` are null for the file as a whole. */
export interface ImportIssue {
  line: number | null;
  column: string | null;
  code: string;
  message: string;
}

/** An import as a scheme's list shows it (GET /api/schemes/:id/imports). */
export interface ImportSummary {
  id: string;
  schemeId: string;
  kind: ImportKind;
  status: ImportStatus;
  fileSha256: string | null;
  /** Bytes read so far while it runs; the whole file's size once it has arrived. */
  fileBytes: number;
  rowsRead: number;
  rowsWritten: number;
  issueCount: number;
  createdBy: string;
  /** The file's own name, when the browser sent it; who uploaded it, by name (issue 21, item 6). */
  fileName: string | null;
  uploadedBy: string | null;
  /** For a contributions file: what it recorded per kind, to check against the payroll run. */
  totals: PaidIn | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** One import with its issues (GET /api/imports/:id): every bad row, up to 10,000. */
export interface ImportDetail extends ImportSummary {
  issues: ImportIssue[] | null;
}

/** `GET /api/members/:id/summary`: a member's pension at a glance (issue 21, item 3). */
export interface PaidIn {
  employeeCents: number;
  employerCents: number;
  avcCents: number;
  totalCents: number;
}
export interface MemberSummary {
  memberId: string;
  name: string;
  scheme: { id: string; name: string; type: string };
  employer: { id: string; name: string };
  allTime: PaidIn;
  taxYear: PaidIn & { year: number };
  lastPeriod: string | null;
}

/** `GET /api/schemes/:id/payroll/:period`: one pay period of a whole scheme (issue 21, item 6). */
export type PayrollCell = { contributionId: string; amountCents: number } | null;
export interface PayrollGrid {
  schemeId: string;
  period: string;
  rows: Array<{
    memberId: string;
    name: string;
    status: string;
    employee: PayrollCell;
    employer: PayrollCell;
    avc: PayrollCell;
  }>;
  totals: PaidIn;
}

export interface PeriodTotals extends PaidIn {
  schemeId: string;
  period: string;
  memberCount: number;
}
