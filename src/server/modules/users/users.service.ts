import { createId } from '@paralleldrive/cuid2';
import { and, eq } from 'drizzle-orm';
import type { AuditService } from '../../audit/audit.service.js';
import { createPlatformReadLog } from '../../audit/platform-reads.js';
import { issueResetToken } from '../../auth/password-reset.service.js';
import { hashPassword, passwordProblem } from '../../auth/passwords.js';
import { findUserByEmail } from '../../auth/user-lookup.js';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { brokers, users } from '../../db/schema.js';
import { type Transaction, withActor } from '../../db/with-actor.js';
import {
  accountCreatedMessage,
  accountOfferedMessage,
  passwordResetLink,
} from '../../email/messages.js';
import type { Outbox } from '../../email/outbox.js';
import { HttpError, ValidationError } from '../../http/http-error.js';
import { keyset, type PageQuery, pageFrom } from '../../http/pagination.js';
import { type ActorContext, anonymousActor, type TenantActor } from '../../tenancy/actor.js';
import {
  ForbiddenError,
  NotFoundError,
  requireParent,
  requirePlatform,
  requireReach,
  requireRole,
  requireTenantActor,
} from '../../tenancy/authorize.js';
import type { Role } from '../../tenancy/roles.js';
import { findEmployer } from '../employers/employers.data.js';
import { findMember } from '../members/members.data.js';
import type { EmployerUserInput, NewUserInput, UserChange, UserView } from './users.schemas.js';

type UserRow = typeof users.$inferSelect;

const viewOf = (row: UserRow): UserView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role as Role,
  brokerId: row.brokerId,
  employerId: row.employerId,
  memberId: row.memberId,
  status: row.status as UserView['status'],
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** What the audit log keeps of a user: never the e-mail address or the password hash. */
const auditStateOf = (row: UserRow) => ({
  id: row.id,
  name: row.name,
  role: row.role,
  brokerId: row.brokerId,
  employerId: row.employerId,
  memberId: row.memberId,
  status: row.status,
});

/** A platform account belongs to no tenant: no tenant-scoped actor can reach it. */
const PLATFORM_SCOPE = '@platform';
const scopeOf = (row: UserRow | undefined) =>
  row && { ...row, brokerId: row.brokerId ?? PLATFORM_SCOPE };

const EMAIL_TAKEN = 'An account with that e-mail address already exists';
const MEMBER_TAKEN = 'This member already has an account';
/** The notice to an address's holder that another firm tried to give it an account. */
const OFFER_NOTICE_VALID_MS = 24 * 60 * 60_000;

export interface UsersServiceDeps {
  database: Database;
  audit: AuditService;
  outbox: Outbox;
  now: () => Date;
  publicBaseUrl: URL;
  /** Told after a commit that queued an e-mail. */
  onEmailQueued: () => void;
}

/**
 * Accounts (decisions.md §3–4): SuperAdmin creates a broker's BrokerAdmin and BrokerUser accounts;
 * the BrokerAdmin creates employer accounts and deactivates users of their own tenant.
 */
export function createUsersService({
  database,
  audit,
  outbox,
  now,
  publicBaseUrl,
  onEmailQueued,
}: UsersServiceDeps) {
  /** The bcrypt hash of a chosen password, or null when the user will choose one by e-mail. */
  async function hashOf(password: string | undefined): Promise<string | null> {
    if (password === undefined) return null;
    const problem = await passwordProblem(password);
    if (problem)
      throw new ValidationError([{ path: 'password', code: 'password_policy', message: problem }]);
    return hashPassword(password);
  }

  async function insertUser(
    tx: Transaction,
    actor: ActorContext,
    account: {
      brokerId: string;
      employerId: string | null;
      memberId: string | null;
      input: NewUserInput;
      passwordHash: string | null;
    },
  ): Promise<UserRow> {
    const at = now();
    let row: UserRow | undefined;
    try {
      [row] = await tx
        .insert(users)
        .values({
          id: createId(),
          email: account.input.email,
          name: account.input.name,
          role: account.input.role,
          brokerId: account.brokerId,
          employerId: account.employerId,
          memberId: account.memberId,
          passwordHash: account.passwordHash,
          passwordChangedAt: at,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_lower_key')) throw new HttpError(409, EMAIL_TAKEN);
      if (isUniqueViolation(error, 'users_member_id_key')) throw new HttpError(409, MEMBER_TAKEN);
      throw error;
    }
    const user = row as UserRow;
    if (account.passwordHash === null) {
      const { token, expiresAt } = await issueResetToken(tx, user, at);
      await outbox.enqueue(tx, {
        brokerId: user.brokerId,
        userId: user.id,
        kind: 'account_created',
        message: accountCreatedMessage(user.email, {
          link: passwordResetLink(publicBaseUrl, token),
          validMinutes: (expiresAt.getTime() - at.getTime()) / 60_000,
          signInUrl: new URL('/signin', publicBaseUrl).toString(),
        }),
        discardAfter: expiresAt,
      });
    }
    await audit.record(tx, actor, {
      action: 'user.created',
      entityType: 'user',
      entityId: user.id,
      tenantId: user.brokerId,
      previousState: null,
      newState: {
        ...auditStateOf(user),
        passwordChosenBy: account.passwordHash ? 'creator' : 'user',
      },
    });
    return user;
  }

  /**
   * Issue 13, defect 7: the address already has an account in another firm (or is a platform
   * account), which this actor cannot see. The actor is answered exactly as for a new address
   * (201, the same body shape) and nothing is written where the actor could see it; the holder
   * of the address is told by e-mail, in their own tenant's outbox. The id in the answer is a
   * fresh one that names nothing, so it reveals no account. Validation, reach checks and the
   * password hash ran before this point on both paths.
   */
  async function offerToExistingHolder(
    actor: TenantActor,
    holder: { id: string; email: string; brokerId: string | null },
    account: { employerId: string; memberId: string | null; input: NewUserInput },
    firm: string,
  ): Promise<UserView> {
    const at = now();
    await withActor(database, anonymousActor(holder.brokerId, actor), (tx) =>
      outbox.enqueue(tx, {
        brokerId: holder.brokerId,
        userId: holder.id,
        kind: 'account_offered',
        message: accountOfferedMessage(holder.email, {
          firm,
          signInUrl: new URL('/signin', publicBaseUrl).toString(),
        }),
        discardAfter: new Date(at.getTime() + OFFER_NOTICE_VALID_MS),
      }),
    );
    return {
      id: createId(),
      email: account.input.email,
      name: account.input.name,
      role: account.input.role,
      brokerId: actor.tenantId,
      employerId: account.employerId,
      memberId: account.memberId,
      status: 'active',
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
    };
  }

  const reads = createPlatformReadLog(audit);
  const listWhere = async (
    actor: ActorContext,
    page: PageQuery,
    where: ReturnType<typeof eq> | undefined,
    scope: Record<string, string>,
  ) => {
    const { after, orderBy, take } = keyset(page, { at: users.createdAt, id: users.id });
    const rows = await withActor(database, actor, async (tx) => {
      const found = await tx
        .select()
        .from(users)
        .where(and(where, after))
        .orderBy(...orderBy)
        .limit(take);
      await reads.listed(tx, actor, {
        entityType: 'user',
        scope,
        filters: page,
        returned: found.length,
      });
      return found;
    });
    const result = pageFrom(rows, page, (row) => ({ at: row.createdAt, id: row.id }));
    return { items: result.items.map(viewOf), nextCursor: result.nextCursor };
  };

  return {
    async createBrokerUser(
      actor: ActorContext,
      brokerId: string,
      input: NewUserInput,
    ): Promise<UserView> {
      requirePlatform(actor);
      const passwordHash = await hashOf(input.password);
      const user = await withActor(database, actor, async (tx) => {
        const [broker] = await tx
          .select({ id: brokers.id })
          .from(brokers)
          .where(eq(brokers.id, brokerId));
        if (!broker) throw new NotFoundError();
        return insertUser(tx, actor, {
          brokerId,
          employerId: null,
          memberId: null,
          input,
          passwordHash,
        });
      });
      if (passwordHash === null) onEmailQueued();
      return viewOf(user);
    },

    async listBrokerUsers(actor: ActorContext, brokerId: string, page: PageQuery) {
      requirePlatform(actor);
      return listWhere(actor, page, eq(users.brokerId, brokerId), { brokerId });
    },

    async createEmployerUser(
      actor: ActorContext,
      employerId: string,
      input: EmployerUserInput,
    ): Promise<UserView> {
      requireRole(actor, 'BrokerAdmin');
      const tenantActor = requireTenantActor(actor);
      const passwordHash = await hashOf(input.password);
      // One indexed read through the authentication lookup (migration 0007): the tenant's own
      // role cannot see accounts of other firms, which is the point.
      const existing = await findUserByEmail(database, input.email);
      const holder = existing && existing.brokerId !== tenantActor.tenantId ? existing : undefined;
      const outcome = await withActor(database, tenantActor, async (tx) => {
        const employer = requireParent(tenantActor, await findEmployer(tx, employerId));
        const member =
          input.memberId === undefined ? undefined : await findMember(tx, input.memberId);
        if (input.memberId !== undefined && member?.employerId !== employer.id) {
          throw new ValidationError([
            {
              path: 'memberId',
              code: 'unknown_member',
              message: 'must be a member of this employer',
            },
          ]);
        }
        if (holder) {
          // Within the actor's reach a member with an account is a plain conflict, as below.
          if (member) {
            const [taken] = await tx
              .select({ id: users.id })
              .from(users)
              .where(eq(users.memberId, member.id));
            if (taken) throw new HttpError(409, MEMBER_TAKEN);
          }
          const [firm] = await tx
            .select({ name: brokers.name })
            .from(brokers)
            .where(eq(brokers.id, tenantActor.tenantId));
          return {
            kind: 'offered' as const,
            employerId: employer.id,
            memberId: member?.id ?? null,
            firm: firm?.name ?? 'a firm',
          };
        }
        const user = await insertUser(tx, tenantActor, {
          brokerId: employer.brokerId,
          employerId: employer.id,
          memberId: member?.id ?? null,
          input,
          passwordHash,
        });
        return { kind: 'created' as const, user };
      });
      if (outcome.kind === 'created') {
        if (passwordHash === null) onEmailQueued();
        return viewOf(outcome.user);
      }
      const view = await offerToExistingHolder(
        tenantActor,
        holder as NonNullable<typeof holder>,
        { employerId: outcome.employerId, memberId: outcome.memberId, input },
        outcome.firm,
      );
      onEmailQueued();
      return view;
    },

    /** The BrokerAdmin sees their employers' accounts; an EmployerAdmin those of their own employer. */
    async listEmployerUsers(actor: ActorContext, employerId: string, page: PageQuery) {
      requireRole(actor, 'EmployerAdmin');
      if (actor.role === 'BrokerUser') throw new ForbiddenError();
      const employer = await withActor(database, actor, (tx) => findEmployer(tx, employerId));
      requireReach(actor, employer);
      return listWhere(actor, page, eq(users.employerId, employerId), { employerId });
    },

    /** Every account of the actor's tenant; SuperAdmin sees all. */
    async list(actor: ActorContext, page: PageQuery) {
      requireRole(actor, 'BrokerAdmin');
      return listWhere(
        actor,
        page,
        actor.tenantId === null ? undefined : eq(users.brokerId, actor.tenantId),
        {},
      );
    },

    async get(actor: ActorContext, id: string): Promise<UserView> {
      requireRole(actor, 'BrokerAdmin');
      const row = await withActor(database, actor, async (tx) => {
        const [found] = await tx.select().from(users).where(eq(users.id, id));
        requireReach(actor, scopeOf(found));
        const reached = found as UserRow;
        await reads.viewed(tx, actor, {
          entityType: 'user',
          entityId: reached.id,
          tenantId: reached.brokerId,
        });
        return reached;
      });
      return viewOf(row);
    },

    /** Renames, deactivates (ending every session at once) or reactivates an account. */
    async update(actor: ActorContext, id: string, change: UserChange): Promise<UserView> {
      requireRole(actor, 'BrokerAdmin');
      if (change.status === 'deactivated' && id === actor.userId) {
        throw new ValidationError([
          {
            path: 'status',
            code: 'own_account',
            message: 'You cannot deactivate your own account',
          },
        ]);
      }
      return withActor(database, actor, async (tx) => {
        const [before] = await tx.select().from(users).where(eq(users.id, id));
        requireReach(actor, scopeOf(before));
        const existing = before as UserRow;
        const [row] = await tx
          .update(users)
          .set({ ...change, updatedAt: now() })
          .where(eq(users.id, existing.id))
          .returning();
        const updated = row as UserRow;
        const action =
          change.status && change.status !== existing.status
            ? change.status === 'deactivated'
              ? 'user.deactivated'
              : 'user.reactivated'
            : 'user.updated';
        await audit.record(tx, actor, {
          action,
          entityType: 'user',
          entityId: updated.id,
          tenantId: updated.brokerId,
          previousState: auditStateOf(existing),
          newState: auditStateOf(updated),
        });
        return viewOf(updated);
      });
    },

    /** `/api/me`: the signed-in user's own account. */
    async me(actor: ActorContext): Promise<UserView> {
      const [row] = await withActor(database, actor, (tx) =>
        tx.select().from(users).where(eq(users.id, actor.userId)),
      );
      if (!row) throw new NotFoundError();
      return viewOf(row);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
