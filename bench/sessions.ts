import { createId } from '@paralleldrive/cuid2';
import { claimsOf } from '../src/server/modules/auth/auth.service.js';
import { openPostgres } from '../src/server/platform/db/postgres.js';
import { users } from '../src/server/platform/db/schema.js';
import { withActor } from '../src/server/platform/db/with-actor.js';
import type { PlatformActor } from '../src/server/platform/tenancy/actor.js';
import type { Role } from '../src/server/platform/tenancy/roles.js';
import { createSessionTokens } from '../src/server/platform/tenancy/session-token.js';

/** Who the benchmarks' set-up writes as: the platform, outside any tenant. */
export const BENCH_ACTOR: PlatformActor = {
  userId: 'benchmark',
  email: 'benchmark',
  role: 'SuperAdmin',
  tenantId: null,
  employerId: null,
  ipAddress: 'local',
  userAgent: 'bench',
};

export interface MintedSessions {
  brokerId: string;
  count: number;
  role: Extract<Role, 'BrokerAdmin' | 'BrokerUser'>;
  /** Names the accounts (`<label>-<n>@bench.example`), apart from other benchmarks' users. */
  label: string;
  /** The AUTH_SECRET the service under test runs with. */
  secret: string;
}

/**
 * `count` accounts of one firm, written straight into the database, and a session token for each,
 * signed as the service signs them. Signed-in traffic is limited per user (docs/api.md, "Rate
 * limits"), so a load spreads over many; and it leaves sign-in out, whose password hashing the
 * identity benchmark measures.
 */
export async function mintSessions(
  url: string,
  { brokerId, count, role, label, secret }: MintedSessions,
): Promise<string[]> {
  const database = await openPostgres(url, url, 2);
  const tokens = createSessionTokens({ secret, now: () => new Date() });
  const issued: string[] = [];
  try {
    for (let start = 0; start < count; start += 500) {
      const rows = await withActor(database, BENCH_ACTOR, (tx) =>
        tx
          .insert(users)
          .values(
            Array.from({ length: Math.min(500, count - start) }, (_, n) => ({
              id: createId(),
              email: `${label}-${start + n}@bench.example`,
              name: `Bench ${label} ${start + n}`,
              passwordHash: 'not a usable hash: these users never sign in',
              role,
              brokerId,
            })),
          )
          .returning(),
      );
      for (const row of rows) {
        issued.push(await tokens.issue(claimsOf(row as typeof row & { role: Role })));
      }
    }
  } finally {
    await database.close();
  }
  return issued;
}
