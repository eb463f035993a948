import type { FastifyPluginAsync } from 'fastify';
import type { AuditService } from '../audit/audit-log.js';
import type { Config } from '../config/config.js';
import type { PpsKeyring } from '../crypto/pps-keyring.js';
import type { Database } from '../db/database.js';
import type { Outbox } from '../email/outbox.js';
import type { UploadSlots } from '../uploads/upload-slots.js';

/**
 * The platform's parts, from which each module of the organisation API composes its own services
 * (docs/decisions/0128-modules-compose-their-services.md). A service still takes only the parts it
 * uses; the module is where it is given them.
 */
export interface PlatformParts {
  database: Database;
  audit: AuditService;
  ppsKeyring: PpsKeyring;
  /** Uploads are spooled to files under here while they are checked. */
  dataDir: string;
  outbox: Outbox;
  now: () => Date;
  publicBaseUrl: URL;
  onEmailQueued: () => void;
  /** The one allowance of concurrent uploads per tenant, shared by every kind of upload. */
  uploads: UploadSlots;
  /** Hashes a password set through a module (an account made with one) at the configured cost. */
  hashPassword: (password: string) => Promise<string>;
  /** The operator and its vendors, for the firms' register of information (DORA Art. 28(3)). */
  ictSupplyChain: Config['dora'];
}

/**
 * A module of the organisation API, composed: the routes it serves, wired to the services it made,
 * and the services other modules are given by name (the dashboard asks the compliance service, the
 * member page the funds service). A new service of the module is wired in its module file alone.
 */
export interface ServerModule<Services extends object = Record<never, never>> {
  routes: FastifyPluginAsync;
  services: Services;
}
