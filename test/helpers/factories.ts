import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { dueOnFor } from '../../src/contracts/data-request-rules.js';
import { todayInIreland } from '../../src/contracts/irish-dates.js';
import { passwordHasher } from '../../src/server/modules/auth/passwords.rules.js';
import type { Database } from '../../src/server/platform/db/database.js';
import {
  filings,
  keyFunctionHolders,
  oraReports,
  trustees,
  users,
  writtenPolicies,
} from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import type { Role } from '../../src/server/platform/tenancy/roles.js';
import { platformActor } from './actors.js';
import { TEST_PASSWORD_HASH_COST } from './config.js';
import { ownerOf } from './database.js';
import { registerName } from './leak-registry.js';
import { newPpsNumber, testPpsKeyring } from './pps.js';

export type UserRow = typeof users.$inferSelect;

/** Every test user's password; hashed once per test file, at the tests' cost (helpers/config.ts). */
export const TEST_PASSWORD = 'correct horse battery staple 42';
let testPasswordHash: Promise<string> | null = null;
function hashedTestPassword(): Promise<string> {
  testPasswordHash ??= passwordHasher(TEST_PASSWORD_HASH_COST)(TEST_PASSWORD);
  return testPasswordHash;
}

export async function createBroker(
  database: Database,
  name = 'Murphy & Byrne Brokers',
): Promise<string> {
  const id = createId();
  // Only the columns every version of the table has, as createEmployer below: the migration tests
  // build firms in a database migrated part of the way, before later columns were added.
  await withActor(database, platformActor(), (tx) =>
    tx.execute(sql`insert into brokers (id, name) values (${id}, ${name})`),
  );
  return id;
}

export async function createEmployer(
  database: Database,
  brokerId: string,
  name = 'Acme Ltd',
): Promise<string> {
  const id = createId();
  // Only the columns every version of the table has, as createScheme below: the migration tests
  // build employers in a database migrated part of the way, before later columns were added.
  await withActor(database, platformActor(), (tx) =>
    tx.execute(
      sql`insert into employers (id, broker_id, name) values (${id}, ${brokerId}, ${name})`,
    ),
  );
  return id;
}

const EMPLOYER_ROLES: Role[] = ['EmployerAdmin', 'EmployerUser', 'Member'];

export interface UserOverrides {
  role?: Role;
  brokerId?: string;
  employerId?: string;
  email?: string;
  /** 'invited': no password yet, with an invitation valid for 72 hours from now. */
  status?: 'invited' | 'active' | 'deactivated';
  isDevelopmentAccount?: boolean;
  passwordHash?: string | null;
  /** For a Member: the member record the account sees (a new one in a new scheme by default). */
  memberId?: string;
}

/** A user with TEST_PASSWORD, creating the broker and employer it needs unless given. */
export async function createUser(
  database: Database,
  overrides: UserOverrides = {},
): Promise<UserRow> {
  const role = overrides.role ?? 'BrokerAdmin';
  const brokerId =
    role === 'SuperAdmin' ? null : (overrides.brokerId ?? (await createBroker(database)));
  const employerId =
    brokerId && EMPLOYER_ROLES.includes(role)
      ? (overrides.employerId ?? (await createEmployer(database, brokerId)))
      : null;
  const memberId =
    role === 'Member' && brokerId && employerId
      ? (overrides.memberId ??
        (
          await createMember(database, {
            brokerId,
            employerId,
            schemeId: await createScheme(database, { id: employerId, brokerId }),
          })
        ).id)
      : null;
  const id = createId();
  const invited = overrides.status === 'invited';
  const passwordHash = invited
    ? null
    : overrides.passwordHash === undefined
      ? await hashedTestPassword()
      : overrides.passwordHash;
  const [user] = await withActor(database, platformActor(), (tx) =>
    tx
      .insert(users)
      .values({
        id,
        email: overrides.email ?? `user-${id}@example.ie`,
        name: registerName(`Test ${role}`),
        passwordHash,
        role,
        brokerId,
        employerId,
        memberId,
        status: overrides.status ?? 'active',
        invitedUntil: invited ? new Date(Date.now() + 72 * 3_600_000) : null,
        isDevelopmentAccount: overrides.isDevelopmentAccount ?? false,
      })
      .returning(),
  );
  if (!user) throw new Error('user was not created');
  return user;
}

export async function createScheme(
  database: Database,
  employer: { id: string; brokerId: string },
  name = 'Acme Staff Pension Scheme',
): Promise<string> {
  const id = createId();
  // Only the columns every version of the table has: the migration tests build schemes in a
  // database migrated part of the way, before later columns (the year end) were added.
  await withActor(database, platformActor(), (tx) =>
    tx.execute(
      sql`insert into schemes (id, broker_id, employer_id, name, type) values (${id}, ${employer.brokerId}, ${employer.id}, ${name}, 'DC')`,
    ),
  );
  return id;
}

export interface MemberRow {
  id: string;
  brokerId: string;
  employerId: string;
  schemeId: string;
  ppsNumber: string;
}

/** A member of the scheme with a fresh valid PPS number, sealed as the service seals it. */
export async function createMember(
  database: Database,
  scheme: { brokerId: string; employerId: string; schemeId: string },
  overrides: {
    ppsNumber?: string;
    firstName?: string;
    lastName?: string;
    /** null: no address on file. */
    email?: string | null;
  } = {},
): Promise<MemberRow> {
  const id = createId();
  const ppsNumber = overrides.ppsNumber ?? newPpsNumber();
  const sealed = testPpsKeyring.seal(ppsNumber, { tenantId: scheme.brokerId, memberId: id });
  const email = overrides.email === undefined ? `member-${id}@example.ie` : overrides.email;
  // Only the columns every version of the table has: the migration tests build members in a
  // database migrated part of the way, before later columns were added.
  await withActor(database, platformActor(), (tx) =>
    tx.execute(
      sql`insert into members (id, broker_id, employer_id, scheme_id, first_name, last_name, date_of_birth, email, address, date_joined, salary_cents, pps_encrypted, pps_key_id, pps_lookup)
          values (${id}, ${scheme.brokerId}, ${scheme.employerId}, ${scheme.schemeId},
            ${registerName(overrides.firstName ?? 'Aoife')}, ${registerName(overrides.lastName ?? 'Murphy')},
            '1985-04-12', ${email}, '1 Main Street, Galway', '2015-09-01', 5500000,
            ${sealed.encrypted}, ${sealed.keyId}, ${testPpsKeyring.lookup(scheme.brokerId, ppsNumber)})`,
    ),
  );
  return { id, ...scheme, ppsNumber };
}

/**
 * A member of the scheme in a status a step of the lifecycle starts from
 * (docs/decisions/0135-members-lifecycle.md): active, or deferred having left on 31 January 2026
 * (joined in 2015, so entitled to a preserved benefit), with that change on record.
 */
export async function createMemberWhoIs(
  database: Database,
  scheme: { brokerId: string; employerId: string; schemeId: string },
  standing: 'active' | 'deferred',
): Promise<string> {
  const member = await createMember(database, scheme);
  if (standing === 'deferred') {
    // As the owner: the platform's role only reads the lifecycle's tables.
    await ownerOf(database).transaction(async (tx) => {
      await tx.execute(
        sql`update members set status = 'deferred', status_on = '2026-01-31' where id = ${member.id}`,
      );
      await tx.execute(
        sql`insert into member_status_changes (broker_id, id, employer_id, scheme_id, member_id, kind, from_status, to_status, effective_on, created_by, created_at)
            values (${scheme.brokerId}, ${createId()}, ${scheme.employerId}, ${scheme.schemeId}, ${member.id}, 'left', 'active', 'deferred', '2026-01-31', 'system', now())`,
      );
    });
  }
  return member.id;
}

/** Where a governance register entry goes: a scheme of an employer of a tenant. */
export interface SchemeRef {
  brokerId: string;
  employerId: string;
  schemeId: string;
}

const registerColumns = (scheme: SchemeRef) => {
  const at = new Date();
  return {
    brokerId: scheme.brokerId,
    id: createId(),
    employerId: scheme.employerId,
    schemeId: scheme.schemeId,
    createdBy: 'system',
    createdAt: at,
    updatedAt: at,
  };
};

/** An individual trustee appointed on `appointedOn`, serving, confirmed fit and proper. */
export async function createTrustee(
  database: Database,
  scheme: SchemeRef,
  fields: Partial<typeof trustees.$inferInsert> = {},
): Promise<string> {
  const values = {
    ...registerColumns(scheme),
    name: 'Aoife Trustee',
    kind: 'individual',
    appointedOn: '2020-01-01',
    fitnessAndProbity: 'confirmed',
    ...fields,
  };
  await withActor(database, platformActor(), (tx) => tx.insert(trustees).values(values));
  return values.id;
}

/** A key function holder, confirmed fit and proper and notified to the Authority unless told otherwise. */
export async function createKeyFunctionHolder(
  database: Database,
  scheme: SchemeRef,
  fields: Partial<typeof keyFunctionHolders.$inferInsert> = {},
): Promise<string> {
  const values = {
    ...registerColumns(scheme),
    function: 'risk_management',
    holderName: `Holder ${createId()}`,
    appointedOn: '2020-01-01',
    fitnessAndProbity: 'confirmed',
    alsoServesEmployer: false,
    notifiedOn: '2020-01-20',
    ...fields,
  };
  await withActor(database, platformActor(), (tx) => tx.insert(keyFunctionHolders).values(values));
  return values.id;
}

/** A written policy: a draft, or approved on `approvedOn` and due for review three years on. */
export async function createPolicy(
  database: Database,
  scheme: SchemeRef,
  fields: Partial<typeof writtenPolicies.$inferInsert> = {},
): Promise<string> {
  const approvedOn = fields.status === 'approved' ? (fields.approvedOn ?? '2024-01-15') : null;
  const values = {
    ...registerColumns(scheme),
    kind: 'risk_management',
    title: 'Risk management policy',
    version: '1.0',
    status: 'draft',
    approvedOn,
    nextReviewDue: approvedOn
      ? `${Number(approvedOn.slice(0, 4)) + 3}${approvedOn.slice(4)}`
      : null,
    ...fields,
  };
  await withActor(database, platformActor(), (tx) => tx.insert(writtenPolicies).values(values));
  return values.id;
}

/** An own-risk assessment performed on `performedOn`, the next due three years on. */
export async function createOraReport(
  database: Database,
  scheme: SchemeRef,
  fields: Partial<typeof oraReports.$inferInsert> = {},
): Promise<string> {
  const performedOn = fields.performedOn ?? '2024-03-01';
  const values = {
    ...registerColumns(scheme),
    performedOn,
    trigger: 'scheduled',
    nextDue: `${Number(performedOn.slice(0, 4)) + 3}${performedOn.slice(4)}`,
    ...fields,
  };
  await withActor(database, platformActor(), (tx) => tx.insert(oraReports).values(values));
  return values.id;
}

/** A filing of the scheme year, done: the Annual Compliance Statement for 2024 unless told. */
export async function createFiling(
  database: Database,
  scheme: SchemeRef,
  fields: Partial<typeof filings.$inferInsert> = {},
): Promise<string> {
  const values = {
    ...registerColumns(scheme),
    kind: 'annual_compliance_statement',
    periodEnd: '2024-12-31',
    completedOn: '2025-01-20',
    ...fields,
  };
  await withActor(database, platformActor(), (tx) => tx.insert(filings).values(values));
  return values.id;
}

/**
 * An open data-subject request about a member, for access and received today in Ireland unless
 * told otherwise, so that every step (extend, complete, refuse) may still be taken
 * (docs/decisions/0137-data-subject-requests.md). Written as the owner: the tenant role alone
 * writes the register.
 */
export async function createOpenDataRequest(
  database: Database,
  member: { brokerId: string; memberId: string },
  {
    kind = 'access',
    receivedOn = todayInIreland(new Date()),
  }: { kind?: string; receivedOn?: string } = {},
): Promise<string> {
  const id = createId();
  const dueOn = dueOnFor(receivedOn);
  await ownerOf(database).execute(
    sql`insert into data_requests (broker_id, id, member_id, kind, received_on, original_due_on, due_on, created_by)
        values (${member.brokerId}, ${id}, ${member.memberId}, ${kind}, ${receivedOn}, ${dueOn}, ${dueOn}, 'system')`,
  );
  return id;
}

/**
 * A member of the scheme of their own whose data is restricted, for the request that lifts it
 * (docs/decisions/0149-retention-and-erasure.md).
 */
export async function createRestrictedMember(
  database: Database,
  scheme: { brokerId: string; employerId: string; schemeId: string },
): Promise<string> {
  const memberId = await createMemberWhoIs(database, scheme, 'active');
  await ownerOf(database).execute(
    sql`insert into member_restrictions (broker_id, id, member_id, reason, restricted_on, created_by)
        values (${scheme.brokerId}, ${createId()}, ${memberId}, 'The salary recorded is disputed', '2026-01-05', 'system')`,
  );
  return memberId;
}
