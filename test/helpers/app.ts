import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { LightMyRequestResponse } from 'fastify';
import {
  type App,
  type AppDependencies,
  buildApp,
  createRateLimitStore,
  DEFAULT_WEB_ROOT,
} from '../../src/server/app.js';
import { claimsOf } from '../../src/server/modules/auth/auth.service.js';
import type { Config } from '../../src/server/platform/config/config.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { createLogger } from '../../src/server/platform/http/logger.js';
import type { RateLimitStore } from '../../src/server/platform/http/rate-limit-store.js';
import type { Role } from '../../src/server/platform/tenancy/roles.js';
import { createSessionTokens } from '../../src/server/platform/tenancy/session-token.js';
import { ensureBuilt } from './build.js';
import { uniqueClientAddress } from './clients.js';
import { testConfig } from './config.js';
import { openTestDatabase } from './database.js';
import { createUser, type UserOverrides, type UserRow } from './factories.js';
import { evidence, REVEAL_PATH } from './leak-registry.js';
import { captureLogs } from './logs.js';

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  logs: ReturnType<typeof captureLogs>;
  /** Every wait sign-in throttling asked for, in milliseconds. */
  pauses: number[];
  /** A session token for this user, as sign-in would issue it. */
  tokenFor(user: UserRow): Promise<string>;
  /**
   * A request as this signed-in user (bearer token), from a client address of its own so that
   * per-IP rate limits stay out of the way.
   */
  requestAs(
    user: UserRow,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse>;
  /** A new user (BrokerAdmin in a new tenant unless overridden) and a session token for it. */
  signedInUser(overrides?: UserOverrides): Promise<{ user: UserRow; token: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /**
   * Where limits count: by default as the service counts (in memory, or Redis with REDIS_URL).
   * Suites that send hundreds of requests as one user to test something else pass
   * `uncountedStore()`, as `requestAs` gives each request an address of its own.
   */
  counters?: RateLimitStore;
  env?: Record<string, string | undefined>;
  /** Reuse a database (and leave it open on close). */
  database?: Database;
  now?: () => Date;
  /** How sign-in throttling waits; by default it records the wait in `pauses` and returns at once. */
  pause?: (ms: number) => Promise<void>;
  /** The regulatory passages chat retrieves (the app's own retrieval otherwise). */
  retrieve?: AppDependencies['retrieve'];
  /** Called before the app is ready, to add routes a test needs. */
  extend?: (app: App) => void | Promise<void>;
}

/** The real app on a fresh database with logs captured; every suite builds its app here. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // The app serves the built web UI and will not start without it.
  await ensureBuilt('web');
  const config = testConfig(options.env);
  const owned = options.database ? null : await openTestDatabase();
  const database = options.database ?? (owned as NonNullable<typeof owned>).database;
  const logs = captureLogs();
  const now = options.now ?? (() => new Date());
  const pauses: number[] = [];
  const logger = createLogger('debug', logs.stream);
  const app = await buildApp({
    counters: options.counters ?? (await createRateLimitStore(config, logger)),
    pause:
      options.pause ??
      (async (ms) => {
        pauses.push(ms);
      }),
    config,
    database,
    logger,
    now,
    webRoot: DEFAULT_WEB_ROOT,
    ...(options.retrieve ? { retrieve: options.retrieve } : {}),
  });
  evidence.logs.push(logs.text);
  app.addHook('onSend', async (request, _reply, payload) => {
    const path = request.url.split('?')[0] ?? '';
    if (!REVEAL_PATH.test(path) && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      evidence.bodies.push(payload.toString());
    }
    return payload;
  });
  await options.extend?.(app);
  await app.ready();
  const tokens = createSessionTokens({ secret: config.secrets.AUTH_SECRET, now });
  const tokenFor = (user: UserRow) => tokens.issue(claimsOf(user as UserRow & { role: Role }));
  return {
    app,
    database,
    config,
    logs,
    pauses,
    tokenFor,
    async requestAs(user, method, url, payload) {
      return app.inject({
        method,
        url,
        ...(payload === undefined ? {} : { payload }),
        remoteAddress: uniqueClientAddress(),
        headers: { authorization: `Bearer ${await tokenFor(user)}` },
      });
    },
    async signedInUser(overrides) {
      const user = await createUser(database, overrides);
      return { user, token: await tokenFor(user) };
    },
    async close() {
      await app.close();
      await owned?.dispose();
    },
  };
}

/** A store that counts nothing: every limit stays open (for suites about something else). */
export function uncountedStore(): RateLimitStore {
  const nothing: FastifyRateLimitStore = {
    incr: (_key, answer) => answer(null, { current: 0, ttl: 60_000 }),
    child: () => nothing,
  };
  return {
    hit: () => ({ count: 0, resetInMs: 60_000 }),
    peek: () => null,
    pluginStore: class {
      constructor() {
        // biome-ignore lint/correctness/noConstructorReturn: the plugin takes a class, the store exists already
        return nothing;
      }
    } as unknown as new () => FastifyRateLimitStore,
    close: async () => undefined,
  };
}
