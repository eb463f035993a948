import type { Database } from '../../src/server/platform/db/database.js';
import type { Role } from '../../src/server/platform/tenancy/roles.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type MemberRow,
  type UserRow,
} from './factories.js';

/** Accounts a test signs in as, by the name it calls them: `{ hr: 'EmployerAdmin' }`. */
export type Accounts = Record<string, Role>;
type AccountRows<A extends Accounts> = { [K in keyof A]: UserRow };

/** What createMember may be told about one member. */
type MemberDetails = NonNullable<Parameters<typeof createMember>[2]>;

export interface FirmOptions<A extends Accounts> {
  /** createBroker's name unless given. */
  brokerName?: string;
  /** createEmployer's name unless given. */
  employerName?: string;
  /**
   * Made one after another in the order given. Broker and platform roles belong to the firm
   * (createUser ignores the employer for them); employer roles to its one employer.
   */
  users?: A;
}

export interface SchemeOptions<A extends Accounts> extends FirmOptions<A> {
  /** createScheme's name unless given. */
  schemeName?: string;
  /** Members of the scheme, made before the accounts: how many, or each one's details. */
  members?: number | readonly MemberDetails[];
}

export interface Firm {
  brokerId: string;
  employerId: string;
}

export interface SchemeSetup extends Firm {
  schemeId: string;
  /** In the order asked for; a Member account is the first one's own. */
  members: MemberRow[];
}

async function accountsOf<A extends Accounts>(
  database: Database,
  scope: Firm,
  users: A | undefined,
  member: MemberRow | undefined,
): Promise<AccountRows<A>> {
  const made: Record<string, UserRow> = {};
  for (const [name, role] of Object.entries(users ?? {})) {
    if (role === 'Member' && !member) throw new Error(`${name}: a Member account needs a member`);
    made[name] = await createUser(database, {
      ...scope,
      role,
      ...(role === 'Member' ? { memberId: member?.id } : {}),
    });
  }
  return made as AccountRows<A>;
}

/** A broker firm with one employer, and the accounts asked for: no scheme yet. */
export async function firmFixture<A extends Accounts = Record<never, Role>>(
  database: Database,
  options: FirmOptions<A> = {},
): Promise<Firm & AccountRows<A>> {
  const brokerId = await createBroker(database, options.brokerName);
  const employerId = await createEmployer(database, brokerId, options.employerName);
  const scope = { brokerId, employerId };
  return { ...scope, ...(await accountsOf(database, scope, options.users, undefined)) };
}

/**
 * A scheme of a new employer of a new broker firm, its members, and the accounts asked for:
 * the starting point most API tests share, each asking only for the people it uses.
 */
export async function schemeFixture<A extends Accounts = Record<never, Role>>(
  database: Database,
  options: SchemeOptions<A> = {},
): Promise<SchemeSetup & AccountRows<A>> {
  const brokerId = await createBroker(database, options.brokerName);
  const employerId = await createEmployer(database, brokerId, options.employerName);
  const schemeId = await createScheme(database, { id: employerId, brokerId }, options.schemeName);
  const scope = { brokerId, employerId };
  const wanted = options.members ?? 0;
  const details = typeof wanted === 'number' ? Array.from({ length: wanted }, () => ({})) : wanted;
  const members: MemberRow[] = [];
  for (const detail of details) {
    members.push(await createMember(database, { ...scope, schemeId }, detail));
  }
  const accounts = await accountsOf(database, scope, options.users, members[0]);
  return { ...scope, schemeId, members, ...accounts };
}

/** A member of a scheme with their own account, and the broker's and employer's staff around them. */
export async function memberWithPeople(database: Database) {
  const { members, ...rest } = await schemeFixture(database, {
    members: 1,
    users: {
      self: 'Member',
      consultant: 'BrokerUser',
      hr: 'EmployerAdmin',
      payroll: 'EmployerUser',
    },
  });
  return { ...rest, member: members[0] as MemberRow };
}
