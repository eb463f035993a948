import { createId } from '@paralleldrive/cuid2';
import { FROM_THE_SERVICE } from '../../../contracts/audit-text.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import type { PlatformActor } from '../../platform/tenancy/actor.js';
import type { Role } from '../../platform/tenancy/roles.js';
import { type HashPassword, passwordProblem } from './passwords.rules.js';
import {
  brokerExists,
  emailTaken,
  insertAccountRow,
  insertBroker,
  operatorSuperAdminExists,
} from './provisioning.data.js';

/** Start-up and the CLI act as the platform itself; their records name this actor. */
export const SYSTEM_ACTOR: PlatformActor = {
  userId: 'system',
  email: 'system',
  role: 'SuperAdmin',
  tenantId: null,
  employerId: null,
  ipAddress: FROM_THE_SERVICE,
  userAgent: 'pension-admin',
};

/**
 * Fixed accounts for development and test only, listed in the README
 * (docs/decisions/0017-development-accounts-and-the-first-superadmin.md). They are created only
 * when APP_ENV is development or test, and sign-in refuses them elsewhere.
 */
export const DEVELOPMENT_BROKER = {
  id: 'devbroker00000000000000000',
  name: 'Development Brokers Ltd',
};
export const DEVELOPMENT_ACCOUNTS: ReadonlyArray<{
  email: string;
  password: string;
  role: Role;
  name: string;
}> = [
  {
    email: 'superadmin@dev.pension-admin.local',
    password: 'dev-superadmin-password',
    role: 'SuperAdmin',
    name: 'Development SuperAdmin',
  },
  {
    email: 'brokeradmin@dev.pension-admin.local',
    password: 'dev-brokeradmin-password',
    role: 'BrokerAdmin',
    name: 'Development BrokerAdmin',
  },
];

export class ProvisioningError extends Error {
  override name = 'ProvisioningError';
}

async function insertAccount(
  tx: Transaction,
  audit: AuditService,
  account: {
    email: string;
    name: string;
    role: Role;
    brokerId: string | null;
    passwordHash: string;
    isDevelopmentAccount: boolean;
  },
): Promise<string> {
  const id = createId();
  await insertAccountRow(tx, { id, ...account });
  await audit.record(tx, SYSTEM_ACTOR, {
    action: 'user.created',
    entityType: 'user',
    entityId: id,
    tenantId: account.brokerId,
    previousState: null,
    newState: {
      id,
      role: account.role,
      brokerId: account.brokerId,
      isDevelopmentAccount: account.isDevelopmentAccount,
    },
  });
  return id;
}

/** Creates the development broker and accounts that are missing; leaves existing ones alone. */
export async function ensureDevelopmentAccounts(
  database: Database,
  audit: AuditService,
  hashPassword: HashPassword,
): Promise<void> {
  // Hash only what is missing, outside the transaction: bcrypt takes a quarter second each.
  const missing = await withActor(database, SYSTEM_ACTOR, async (tx) => {
    const absent: (typeof DEVELOPMENT_ACCOUNTS)[number][] = [];
    for (const account of DEVELOPMENT_ACCOUNTS) {
      if (!(await emailTaken(tx, account.email))) absent.push(account);
    }
    return absent;
  });
  const hashed = await Promise.all(missing.map((account) => hashPassword(account.password)));
  const hashes = new Map<string, string>(
    missing.map((account, index) => [account.email, hashed[index] as string]),
  );
  await withActor(database, SYSTEM_ACTOR, async (tx) => {
    if (!(await brokerExists(tx, DEVELOPMENT_BROKER.id))) {
      await insertBroker(tx, DEVELOPMENT_BROKER);
      await audit.record(tx, SYSTEM_ACTOR, {
        action: 'broker.created',
        entityType: 'broker',
        entityId: DEVELOPMENT_BROKER.id,
        tenantId: DEVELOPMENT_BROKER.id,
        previousState: null,
        newState: DEVELOPMENT_BROKER,
      });
    }
    for (const account of DEVELOPMENT_ACCOUNTS) {
      const passwordHash = hashes.get(account.email);
      if (passwordHash === undefined || (await emailTaken(tx, account.email))) continue;
      await insertAccount(tx, audit, {
        email: account.email,
        name: account.name,
        role: account.role,
        brokerId: account.role === 'SuperAdmin' ? null : DEVELOPMENT_BROKER.id,
        passwordHash,
        isDevelopmentAccount: true,
      });
    }
  });
}

/**
 * A SuperAdmin from the operator's e-mail and password
 * (docs/decisions/0017-development-accounts-and-the-first-superadmin.md). With `onlyIfNone`
 * (start-up) nothing happens once any SuperAdmin exists; the CLI adds one regardless.
 */
export async function createSuperAdmin(
  database: Database,
  audit: AuditService,
  {
    email,
    password,
    onlyIfNone,
    hashPassword,
  }: { email: string; password: string; onlyIfNone: boolean; hashPassword: HashPassword },
): Promise<'created' | 'skipped'> {
  const problem = await passwordProblem(password);
  if (problem) throw new ProvisioningError(`The SuperAdmin password ${problem}`);
  const passwordHash = await hashPassword(password);
  return withActor(database, SYSTEM_ACTOR, async (tx) => {
    if (onlyIfNone && (await operatorSuperAdminExists(tx))) return 'skipped';
    if (await emailTaken(tx, email))
      throw new ProvisioningError('An account with that e-mail address already exists');
    await insertAccount(tx, audit, {
      email: email.trim(),
      name: 'Platform administrator',
      role: 'SuperAdmin',
      brokerId: null,
      passwordHash,
      isDevelopmentAccount: false,
    });
    return 'created';
  });
}
