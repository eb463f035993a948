import { auditChainKey } from '../../src/server/platform/audit/audit-chain.js';
import {
  type ChainVerification,
  createAuditService,
  verifyAuditChains,
} from '../../src/server/platform/audit/audit-log.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { TEST_SECRETS } from './config.js';

/** The chain key every test app is configured with (TEST_SECRETS.AUDIT_CHAIN_KEY). */
export const TEST_CHAIN_KEY = auditChainKey(TEST_SECRETS.AUDIT_CHAIN_KEY);

/** An audit service sealing records as a test app would. */
export function testAuditService(now: () => Date = () => new Date()) {
  return createAuditService({ now, chainKey: TEST_CHAIN_KEY });
}

/** audit:verify with the test key. */
export function verifyTestChains(
  database: Database,
  options: { tenantId?: string } = {},
): Promise<ChainVerification> {
  return verifyAuditChains(database, { keys: [TEST_CHAIN_KEY], ...options });
}
