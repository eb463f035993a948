/** The shapes the API answers with (its OpenAPI description at /openapi.json is the reference). */
export type Role =
  | 'SuperAdmin'
  | 'BrokerAdmin'
  | 'BrokerUser'
  | 'EmployerAdmin'
  | 'EmployerUser'
  | 'Member';

export interface SessionUser {
  id: string;
  email: string;
  role: Role;
  brokerId: string | null;
  employerId: string | null;
}

export interface Me extends SessionUser {
  name: string;
  memberId: string | null;
  status: 'active' | 'deactivated';
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
  status: 'active' | 'deactivated';
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
  adjustments: Array<{ id: string; deltaCents: number; reason: string; createdAt: string }>;
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
