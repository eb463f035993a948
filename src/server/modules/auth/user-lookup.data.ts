import { type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../platform/db/database.js';
import type { users } from '../../platform/db/schema.js';

export type UserRow = typeof users.$inferSelect;

interface RawUser {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  role: string;
  broker_id: string | null;
  employer_id: string | null;
  status: string;
  password_changed_at: Date | string;
  session_epoch: number;
  is_development_account: boolean;
  member_id: string | null;
  invited_until: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

async function lookup(database: Database, call: SQL): Promise<UserRow | undefined> {
  const [raw] = rowsOf<RawUser>(await database.db.execute(call));
  if (!raw) return undefined;
  return {
    id: raw.id,
    email: raw.email,
    name: raw.name,
    passwordHash: raw.password_hash,
    role: raw.role,
    brokerId: raw.broker_id,
    employerId: raw.employer_id,
    status: raw.status,
    passwordChangedAt: toDate(raw.password_changed_at),
    sessionEpoch: raw.session_epoch,
    isDevelopmentAccount: raw.is_development_account,
    memberId: raw.member_id,
    invitedUntil: raw.invited_until === null ? null : toDate(raw.invited_until),
    createdAt: toDate(raw.created_at),
    updatedAt: toDate(raw.updated_at),
  };
}

/**
 * Users found before any tenant is known (sign-in, session checks), through functions that run as
 * pension_auth, the role that can read users and nothing else (migration 0007).
 */
export const findUserById = (database: Database, id: string) =>
  lookup(database, sql`select * from auth_user_by_id(${id})`);

export const findUserByEmail = (database: Database, email: string) =>
  lookup(database, sql`select * from auth_user_by_email(${email})`);
