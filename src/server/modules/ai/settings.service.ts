import type { AiSettingsInput, AiSettingsView } from '../../../contracts/ai.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { AiProviderName } from '../../platform/config/config.js';
import type { SealedBox } from '../../platform/crypto/sealed-box.js';
import { withoutQuerySignal } from '../../platform/db/connection-bounds.js';
import type { Database } from '../../platform/db/database.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { LimitReachedError } from '../../platform/errors.js';
import type { ActorContext, TenantActor } from '../../platform/tenancy/actor.js';
import { authorize, boundsOf } from '../../platform/tenancy/authorize.js';
import {
  type AiSettingsRow,
  addTokens,
  membersNamedIn,
  monthOf,
  reserveRequest,
  saveSettings,
  settingsOf,
  usageOf,
} from './ai.data.js';
import type { ProviderUsage } from './ai-provider.client.js';
import type { Denylist } from './provider-guard.rules.js';

export interface AiAccessDeps {
  database: Database;
  now: () => Date;
  /** Seals tenants' provider keys under AI_KEY_ENCRYPTION_SECRET, the tenant id as context. */
  keyBox: SealedBox;
  /** The platform's provider key (AI_API_KEY), used where a tenant has none of its own. */
  platformKey: string | null;
  defaultLimits: { monthlyRequests: number; monthlyTokens: number };
}

const limitsOf = (row: AiSettingsRow | undefined, defaults: AiAccessDeps['defaultLimits']) => ({
  requests: row?.monthlyRequestLimit ?? defaults.monthlyRequests,
  tokens: row?.monthlyTokenLimit ?? defaults.monthlyTokens,
});

export const LIMIT_REACHED_MESSAGE =
  "This firm has used this month's AI allowance. It renews on the first of the month, or a BrokerAdmin can raise the limit.";

/**
 * Who pays for a provider request and whether they still may: the tenant's own key or the
 * platform's, and the month's limits (docs/decisions/0066-ai-provider-guard-and-chat.md).
 * Used by the chat and drafting services after they have authorised the actor. The
 * counter is metering, as the rate limits' counters are, and is not audited: a record per question
 * would serialise every chat of a tenant on its audit chain (docs/decisions/0066-ai-provider-guard-and-chat.md).
 */
export function createAiAccess({
  database,
  now,
  keyBox,
  platformKey,
  defaultLimits,
}: AiAccessDeps) {
  return {
    /**
     * One request counted against the month's limits, with the key to send it with and the
     * denylist `denylistOf` finds in the same transaction: 429 when the limits are used up.
     */
    async reserve(
      actor: TenantActor,
      denylistOf: (tx: Transaction) => Promise<Denylist>,
    ): Promise<{ apiKey: string; month: string; denylist: Denylist }> {
      return withActor(database, actor, async (tx) => {
        const settings = await settingsOf(tx, actor.tenantId);
        const denylist = await denylistOf(tx);
        const month = monthOf(now());
        // Last: the month's counter row stays locked until the commit, so concurrent requests of
        // the tenant wait on each other for no longer than that.
        if (!(await reserveRequest(tx, actor.tenantId, month, limitsOf(settings, defaultLimits)))) {
          throw new LimitReachedError(LIMIT_REACHED_MESSAGE);
        }
        const apiKey = settings?.apiKeySealed
          ? keyBox.open(settings.apiKeySealed, actor.tenantId)
          : platformKey;
        return { apiKey: apiKey ?? '', month, denylist };
      });
    },

    /**
     * The members a question names (by name, date of birth or salary), for the guard to refuse:
     * only those within the asker's reach for chat (policy.ts, `ai.chat`), so that the refusal
     * says nothing of members they cannot see. Row-level security keeps it to the tenant besides.
     */
    async membersNamedIn(actor: TenantActor, question: string): Promise<Denylist> {
      const reach = boundsOf(actor, 'ai.chat');
      return withActor(database, actor, (tx) =>
        membersNamedIn(tx, question, { employerId: reach.employerId }),
      );
    },

    /**
     * The tokens a request used, added to the month's count once the answer is in. The provider
     * has spent them whatever became of the client, and chat writes them after the answer has
     * gone, by when the response may have closed and the request's signal (connection-bounds.ts)
     * aborted: the write runs under no request's signal, in a transaction of its own
     * (docs/decisions/0084-work-after-the-answer.md).
     */
    async record(actor: TenantActor, month: string, usage: ProviderUsage): Promise<void> {
      await withoutQuerySignal(() =>
        withActor(database, actor, (tx) => addTokens(tx, actor.tenantId, month, usage)),
      );
    },
  };
}
export type AiAccess = ReturnType<typeof createAiAccess>;

/** The firm's own key and limits: BrokerAdmin only (contracts/policy.ts). */
export function createAiSettingsService({
  database,
  audit,
  now,
  keyBox,
  defaultLimits,
  provider,
  fourEyesByDefault,
}: Omit<AiAccessDeps, 'platformKey'> & {
  audit: AuditService;
  provider: AiProviderName;
  /** The platform's default for firms that have not chosen (drafts.service.ts). */
  fourEyesByDefault: boolean;
}) {
  async function viewOf(tx: Transaction, actor: TenantActor): Promise<AiSettingsView> {
    const settings = await settingsOf(tx, actor.tenantId);
    const month = monthOf(now());
    const usage = await usageOf(tx, actor.tenantId, month);
    const limits = limitsOf(settings, defaultLimits);
    return {
      provider,
      apiKeySet: Boolean(settings?.apiKeySealed),
      monthlyRequestLimit: limits.requests,
      monthlyTokenLimit: limits.tokens,
      fourEyes: settings?.fourEyes ?? fourEyesByDefault,
      usage: {
        month,
        requests: usage.requests,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
      },
    };
  }

  /** The audit sees whether a key is set and the limits: never the key. */
  const auditState = (row: AiSettingsRow | undefined) =>
    row
      ? {
          apiKeySet: Boolean(row.apiKeySealed),
          monthlyRequestLimit: row.monthlyRequestLimit,
          monthlyTokenLimit: row.monthlyTokenLimit,
          fourEyes: row.fourEyes,
        }
      : null;

  return {
    async read(actor: ActorContext): Promise<AiSettingsView> {
      const reader = authorize(actor, 'ai.settings.read');
      return withActor(database, reader, (tx) => viewOf(tx, reader));
    },

    async update(actor: ActorContext, change: AiSettingsInput): Promise<AiSettingsView> {
      const writer = authorize(actor, 'ai.settings.update');
      return withActor(database, writer, async (tx) => {
        const existing = await settingsOf(tx, writer.tenantId);
        const at = now();
        const values = {
          ...(change.apiKey !== undefined
            ? {
                apiKeySealed:
                  change.apiKey === null ? null : keyBox.seal(change.apiKey, writer.tenantId),
              }
            : {}),
          ...(change.monthlyRequestLimit !== undefined
            ? { monthlyRequestLimit: change.monthlyRequestLimit }
            : {}),
          ...(change.monthlyTokenLimit !== undefined
            ? { monthlyTokenLimit: change.monthlyTokenLimit }
            : {}),
          ...(change.fourEyes !== undefined ? { fourEyes: change.fourEyes } : {}),
          updatedBy: writer.userId,
          updatedAt: at,
        };
        const row = await saveSettings(tx, writer.tenantId, values, at);
        await audit.record(tx, writer, {
          action: 'ai.settings_updated',
          entityType: 'ai_settings',
          entityId: writer.tenantId,
          tenantId: writer.tenantId,
          previousState: auditState(existing),
          newState: {
            ...auditState(row),
            changedFields: Object.keys(change).filter(
              (field) => change[field as keyof AiSettingsInput] !== undefined,
            ),
          },
        });
        return viewOf(tx, writer);
      });
    },
  };
}
export type AiSettingsService = ReturnType<typeof createAiSettingsService>;
