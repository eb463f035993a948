import { createId } from '@paralleldrive/cuid2';
import { hashPassword } from '../../src/server/auth/passwords.js';
import type { Database } from '../../src/server/db/database.js';
import { brokers, employers, schemes, users } from '../../src/server/db/schema.js';
import { withActor } from '../../src/server/db/with-actor.js';
import type { Role } from '../../src/server/tenancy/roles.js';
import { platformActor } from './actors.js';

export type UserRow = typeof users.$inferSelect;

/** Every test user's password; hashed once per test file (bcrypt at cost 12 takes a quarter second). */
export const TEST_PASSWORD = 'correct horse battery staple 42';
let testPasswordHash: Promise<string> | null = null;
function hashedTestPassword(): Promise<string> {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  return testPasswordHash;
}

export async function createBroker(
  database: Database,
  name = 'Murphy & Byrne Brokers',
): Promise<string> {
  const id = createId();
  await withActor(database, platformActor(), (tx) => tx.insert(brokers).values({ id, name }));
  return id;
}

export async function createEmployer(
  database: Database,
  brokerId: string,
  name = 'Acme Ltd',
): Promise<string> {
  const id = createId();
  await withActor(database, platformActor(), (tx) =>
    tx.insert(employers).values({ id, brokerId, name }),
  );
  return id;
}

const EMPLOYER_ROLES: Role[] = ['EmployerAdmin', 'EmployerUser', 'Member'];

export interface UserOverrides {
  role?: Role;
  brokerId?: string;
  employerId?: string;
  email?: string;
  status?: 'active' | 'deactivated';
  isDevelopmentAccount?: boolean;
  passwordHash?: string | null;
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
  const id = createId();
  const passwordHash =
    overrides.passwordHash === undefined ? await hashedTestPassword() : overrides.passwordHash;
  const [user] = await withActor(database, platformActor(), (tx) =>
    tx
      .insert(users)
      .values({
        id,
        email: overrides.email ?? `user-${id}@example.ie`,
        name: `Test ${role}`,
        passwordHash,
        role,
        brokerId,
        employerId,
        status: overrides.status ?? 'active',
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
  await withActor(database, platformActor(), (tx) =>
    tx
      .insert(schemes)
      .values({ id, brokerId: employer.brokerId, employerId: employer.id, name, type: 'DC' }),
  );
  return id;
}
