import { createId } from '@paralleldrive/cuid2';
import { INVITATION_VALID_HOURS, type MemberPortalAccount } from '../../../contracts/accounts.js';
import {
  type InvitationPlace,
  invitableRoles,
  invitableRolesMessage,
  invitationPurpose,
  manageableRoles,
  manageableRolesMessage,
} from '../../../contracts/invitations.js';
import type { PageQuery } from '../../../contracts/pages.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { users } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import {
  accountOfferedMessage,
  type Inviter,
  invitationLink,
  invitationMessage,
} from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import {
  type ActorContext,
  anonymousActor,
  type TenantActor,
} from '../../platform/tenancy/actor.js';
import {
  authorize,
  authorizeRow,
  boundsOf,
  ForbiddenError,
  NotFoundError,
} from '../../platform/tenancy/authorize.js';
import type { Role } from '../../platform/tenancy/roles.js';
import {
  findUserByEmail,
  type HashPassword,
  issueToken,
  passwordPolicyRefusal,
  passwordProblem,
  withdrawTokens,
} from '../auth/index.js';
import { findEmployer } from '../employers/index.js';
import { findMember } from '../members/index.js';
import {
  brokerName,
  employerName,
  findBrokerId,
  findInvitedUser,
  findMemberAccount,
  findUser,
  findUserWithPlaces,
  insertUserRow,
  listUsers,
  schemeName,
  setInvitedUntil,
  type UserRow,
  updateUserRow,
} from './users.data.js';
import type {
  ColleagueInput,
  EmployerUserInput,
  ListedAccount,
  MeView,
  NewUserInput,
  UserChange,
  UserView,
} from './users.schemas.js';

const viewOf = (row: UserRow): UserView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role as Role,
  brokerId: row.brokerId,
  employerId: row.employerId,
  memberId: row.memberId,
  status: row.status as UserView['status'],
  invitedUntil: row.invitedUntil?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * What the audit log keeps of an account: references, role and status, never its name or e-mail
 * address (the chain is append-only: docs/decisions/0098-no-personal-data-in-the-audit-chain.md);
 * an update lists the fields it changed.
 */
const auditStateOf = (row: UserRow, changed?: string[]) => ({
  id: row.id,
  role: row.role,
  brokerId: row.brokerId,
  employerId: row.employerId,
  memberId: row.memberId,
  status: row.status,
  ...(changed ? { changedFields: changed } : {}),
});

/** The fields of an account an update changed, by name only. */
function changedFieldsOf(before: UserRow, after: UserRow): string[] {
  const fields = ['name', 'status', 'invitedUntil'] as const;
  return fields.filter((field) => String(before[field]) !== String(after[field]));
}

/** A platform account belongs to no tenant: no tenant-scoped actor can reach it. */
const PLATFORM_SCOPE = '@platform';
const placeOf = (row: UserRow | undefined) =>
  row && { ...row, brokerId: row.brokerId ?? PLATFORM_SCOPE };

const EMAIL_TAKEN = 'An account with that e-mail address already exists';
const MEMBER_TAKEN = 'This member already has an account';
const NOT_INVITED = 'This account has already been set up: there is no invitation to send';
/** The notice to an address's holder that another firm invited it. */
const OFFER_NOTICE_VALID_MS = 24 * 60 * 60_000;

/** What an invitation names: the firm, and the employer or scheme the account is for. */
interface InvitationContext {
  firm: string;
  /** The employer whose account it is; null for the firm's own staff. */
  employer: string | null;
  purpose: string;
}

/**
 * Refuses a role the inviter may not give in that place (contracts/invitations.ts), beside the
 * role's field, before anything is read or written.
 */
function checkInvitableRole(inviter: Role, place: InvitationPlace, role: Role): void {
  if (invitableRoles(inviter, place).includes(role)) return;
  throw new ValidationError([
    { path: 'role', code: 'role_not_invitable', message: invitableRolesMessage(inviter, place) },
  ]);
}

/**
 * Refuses an account within the actor's reach whose role they may not look after
 * (contracts/invitations.ts): an employer's administrator and a fellow one, say. The account is
 * theirs to see, so the refusal says why rather than answering as if it did not exist.
 */
function checkManageable(manager: Role, account: UserRow): void {
  if (manageableRoles(manager).includes(account.role as Role)) return;
  throw new ForbiddenError(manageableRolesMessage(manager));
}

/** An address that signs in to an account of another firm, or the platform. */
type Holder = { id: string; email: string; brokerId: string | null };

export interface UsersServiceDeps {
  database: Database;
  audit: AuditService;
  outbox: Outbox;
  now: () => Date;
  publicBaseUrl: URL;
  /** Told after a commit that queued an e-mail. */
  onEmailQueued: () => void;
  hashPassword: HashPassword;
}

/**
 * Who an invitation says invites: a firm's first account is made by the platform, where nobody at
 * the firm can resend it yet; an employer's administrator invites into their own employer, in its
 * name (docs/decisions/0044-invitations.md).
 */
function inviterOf(role: ActorContext['role'], context: InvitationContext): Inviter {
  if (role === 'SuperAdmin') return { by: 'platform' };
  if (role === 'EmployerAdmin' && context.employer !== null) {
    return { by: 'employer', employer: context.employer };
  }
  return { by: 'firm' };
}

/** Accounts (docs/api.md, "The firm's structure"; who may do what: contracts/policy.ts). */
export function createUsersService({
  database,
  audit,
  outbox,
  now,
  publicBaseUrl,
  onEmailQueued,
  hashPassword,
}: UsersServiceDeps) {
  /** The bcrypt hash of a chosen password, or null when the user will choose one by e-mail. */
  async function hashOf(password: string | undefined): Promise<string | null> {
    if (password === undefined) return null;
    const problem = await passwordProblem(password);
    if (problem) throw passwordPolicyRefusal('password', problem);
    return hashPassword(password);
  }

  /** The firm's name and the employer's or scheme's, for the invitation e-mail. */
  async function invitationContext(
    tx: Transaction,
    brokerId: string,
    account: { role: Role; employerName: string | null; memberSchemeId: string | null },
  ): Promise<InvitationContext> {
    const firm = await brokerName(tx, brokerId);
    const scheme = account.memberSchemeId
      ? await schemeName(tx, account.memberSchemeId)
      : undefined;
    return {
      firm: firm?.name ?? 'Your pension broker',
      employer: account.employerName,
      purpose: invitationPurpose(account.role, account.employerName, scheme?.name ?? null),
    };
  }

  /**
   * A fresh 72-hour link for an invited account, replacing any earlier one, with the e-mail that
   * carries it in the same transaction. When the address already signs in to an account of
   * another firm (docs/decisions/0044-invitations.md), the link is made and stored all the same, so the invited
   * account reads exactly as any other, but it is never sent: it could not be accepted, since an
   * address signs in to one account. The holder is told instead, after the commit (`notify`).
   */
  async function sendInvitation(
    tx: Transaction,
    actor: ActorContext,
    user: UserRow,
    context: InvitationContext,
    holder: Holder | undefined,
  ): Promise<{ invitedUntil: Date; notify: () => Promise<void> }> {
    const at = now();
    const { token, expiresAt } = await issueToken(tx, user, at, 'invitation');
    await setInvitedUntil(tx, user.id, expiresAt);
    if (!holder) {
      await outbox.enqueue(tx, {
        brokerId: user.brokerId,
        userId: user.id,
        kind: 'account_created',
        message: invitationMessage(user.email, {
          firm: context.firm,
          inviter: inviterOf(actor.role, context),
          purpose: context.purpose,
          link: invitationLink(publicBaseUrl, token),
          validHours: INVITATION_VALID_HOURS,
        }),
        discardAfter: expiresAt,
      });
      return { invitedUntil: expiresAt, notify: async () => {} };
    }
    const notify = async () => {
      await withActor(database, anonymousActor(holder.brokerId, actor), (notice) =>
        outbox.enqueue(notice, {
          brokerId: holder.brokerId,
          userId: holder.id,
          kind: 'account_offered',
          message: accountOfferedMessage(holder.email, {
            firm: context.firm,
            signInUrl: new URL('/signin', publicBaseUrl).toString(),
          }),
          discardAfter: new Date(at.getTime() + OFFER_NOTICE_VALID_MS),
        }),
      );
    };
    return { invitedUntil: expiresAt, notify };
  }

  /**
   * A new account: active at once with a password the SuperAdmin chose, otherwise invited. The
   * row, its invitation and the audit record commit together.
   */
  async function insertUser(
    tx: Transaction,
    actor: ActorContext,
    account: {
      brokerId: string;
      employerId: string | null;
      employerName: string | null;
      memberId: string | null;
      memberSchemeId: string | null;
      input: NewUserInput;
      passwordHash: string | null;
      holder: Holder | undefined;
    },
  ): Promise<{ user: UserRow; notify: () => Promise<void> }> {
    const at = now();
    const invited = account.passwordHash === null;
    let row: UserRow | undefined;
    try {
      row = await insertUserRow(tx, {
        id: createId(),
        email: account.input.email,
        name: account.input.name,
        role: account.input.role,
        brokerId: account.brokerId,
        employerId: account.employerId,
        memberId: account.memberId,
        passwordHash: account.passwordHash,
        passwordChangedAt: at,
        status: invited ? 'invited' : 'active',
        // Replaced by the link's own expiry just below, in the same transaction.
        invitedUntil: invited ? at : null,
        createdAt: at,
        updatedAt: at,
      });
    } catch (error) {
      if (
        isUniqueViolation(error, 'users_tenant_email_lower_key') ||
        isUniqueViolation(error, 'users_email_lower_key')
      )
        throw new ConflictError(EMAIL_TAKEN);
      if (isUniqueViolation(error, 'users_member_id_key')) throw new ConflictError(MEMBER_TAKEN);
      throw error;
    }
    let user = row as UserRow;
    let notify = async () => {};
    if (invited) {
      const context = await invitationContext(tx, account.brokerId, {
        role: user.role as Role,
        employerName: account.employerName,
        memberSchemeId: account.memberSchemeId,
      });
      const sent = await sendInvitation(tx, actor, user, context, account.holder);
      user = { ...user, invitedUntil: sent.invitedUntil };
      notify = sent.notify;
    }
    await audit.record(tx, actor, {
      action: 'user.created',
      entityType: 'user',
      entityId: user.id,
      tenantId: user.brokerId,
      previousState: null,
      newState: {
        ...auditStateOf(user),
        passwordChosenBy: invited ? 'user' : 'creator',
      },
    });
    return { user, notify };
  }

  /**
   * The account, if any, that the address signs in to outside the actor's firm: a firm's
   * invitation to it is made as any other but never sent (sendInvitation). Read through the
   * authentication lookup (migration 0007), since the tenant's own role cannot see other firms'
   * accounts, which is the point.
   */
  async function holderElsewhere(actor: TenantActor, email: string): Promise<Holder | undefined> {
    const existing = await findUserByEmail(database, email);
    return existing && existing.brokerId !== actor.tenantId ? existing : undefined;
  }

  /** Runs after the commit: what was queued goes out now. */
  async function afterCommit(outcome: { notify: () => Promise<void> }, invited: boolean) {
    await outcome.notify();
    if (invited) onEmailQueued();
  }

  const reads = createPlatformReadLog(audit);
  const listWhere = async (
    actor: ActorContext,
    page: PageQuery,
    filter: { brokerId?: string; employerId?: string },
    scope: Record<string, string>,
  ) => {
    const position = keyset(page, { at: users.createdAt, id: users.id });
    const rows = await withActor(database, actor, async (tx) => {
      const found = await listUsers(tx, filter, position);
      await reads.listed(tx, actor, {
        entityType: 'user',
        scope,
        filters: page,
        returned: found.length,
      });
      return found;
    });
    const result = pageFrom(rows, page, ({ user }) => ({ at: user.createdAt, id: user.id }));
    return {
      items: result.items.map(
        ({ user, secondFactor }): ListedAccount => ({ ...viewOf(user), secondFactor }),
      ),
      nextCursor: result.nextCursor,
    };
  };

  return {
    /** The platform's own, seeing every account: an address in use anywhere is a plain 409. */
    async createBrokerUser(
      actor: ActorContext,
      brokerId: string,
      input: NewUserInput,
    ): Promise<UserView> {
      authorize(actor, 'broker.users.create');
      checkInvitableRole(actor.role, 'firm', input.role);
      const passwordHash = await hashOf(input.password);
      if (await findUserByEmail(database, input.email)) throw new ConflictError(EMAIL_TAKEN);
      const outcome = await withActor(database, actor, async (tx) => {
        const broker = await findBrokerId(tx, brokerId);
        authorizeRow(
          actor,
          'broker.users.create',
          broker && { brokerId: broker.id, employerId: null },
        );
        return insertUser(tx, actor, {
          brokerId,
          employerId: null,
          employerName: null,
          memberId: null,
          memberSchemeId: null,
          input,
          passwordHash,
          holder: undefined,
        });
      });
      await afterCommit(outcome, passwordHash === null);
      return viewOf(outcome.user);
    },

    /** POST /api/users: a colleague invited into the inviter's own firm, an administrator or staff. */
    async inviteColleague(actor: ActorContext, input: ColleagueInput): Promise<UserView> {
      const tenantActor = authorize(actor, 'user.colleague.invite');
      checkInvitableRole(tenantActor.role, 'firm', input.role);
      const holder = await holderElsewhere(tenantActor, input.email);
      const outcome = await withActor(database, tenantActor, (tx) =>
        insertUser(tx, tenantActor, {
          brokerId: tenantActor.tenantId,
          employerId: null,
          employerName: null,
          memberId: null,
          memberSchemeId: null,
          input,
          passwordHash: null,
          holder,
        }),
      );
      await afterCommit(outcome, true);
      return viewOf(outcome.user);
    },

    async listBrokerUsers(actor: ActorContext, brokerId: string, page: PageQuery) {
      authorize(actor, 'broker.users.list');
      return listWhere(actor, page, { brokerId }, { brokerId });
    },

    /**
     * An employer's account, always invited. An address that already signs in elsewhere gets an
     * invitation that reads as any other and is never sent (sendInvitation).
     */
    async createEmployerUser(
      actor: ActorContext,
      employerId: string,
      input: EmployerUserInput,
    ): Promise<UserView> {
      const tenantActor = authorize(actor, 'employer.users.create');
      checkInvitableRole(tenantActor.role, 'employer', input.role);
      const holder = await holderElsewhere(tenantActor, input.email);
      const outcome = await withActor(database, tenantActor, async (tx) => {
        const employer = authorizeRow(
          tenantActor,
          'employer.users.create',
          await findEmployer(tx, employerId),
        );
        const member =
          input.memberId === undefined ? undefined : await findMember(tx, input.memberId);
        if (input.memberId !== undefined && member?.employerId !== employer.id) {
          throw new ValidationError([
            {
              path: 'memberId',
              code: 'unknown_member',
              message: 'Choose a member of this employer',
            },
          ]);
        }
        return insertUser(tx, tenantActor, {
          brokerId: employer.brokerId,
          employerId: employer.id,
          employerName: employer.name,
          memberId: member?.id ?? null,
          memberSchemeId: member?.schemeId ?? null,
          input,
          passwordHash: null,
          holder,
        });
      });
      await afterCommit(outcome, true);
      return viewOf(outcome.user);
    },

    /** Sends an invited account a fresh link, ending the earlier one. */
    async resendInvitation(actor: ActorContext, id: string): Promise<UserView> {
      authorize(actor, 'user.invitation.resend');
      const found = await withActor(database, actor, async (tx) => {
        const row = await findUser(tx, id);
        authorizeRow(actor, 'user.invitation.resend', placeOf(row));
        checkManageable(actor.role, row as UserRow);
        return row as UserRow;
      });
      if (found.status !== 'invited') throw new ConflictError(NOT_INVITED);
      // The lookup finds only accounts that have been set up, and a firm holds an address once,
      // so any account it finds is another firm's (or the platform's).
      const holder = await findUserByEmail(database, found.email);
      const outcome = await withActor(database, actor, async (tx) => {
        const current = await findInvitedUser(tx, found.id);
        if (!current) throw new ConflictError(NOT_INVITED);
        const employer = current.employerId
          ? await employerName(tx, current.employerId)
          : undefined;
        const memberSchemeId = current.memberId
          ? ((await findMember(tx, current.memberId))?.schemeId ?? null)
          : null;
        const context = await invitationContext(tx, current.brokerId as string, {
          role: current.role as Role,
          employerName: employer?.name ?? null,
          memberSchemeId,
        });
        const sent = await sendInvitation(tx, actor, current, context, holder);
        await audit.record(tx, actor, {
          action: 'user.invitation_sent',
          entityType: 'user',
          entityId: current.id,
          tenantId: current.brokerId,
          previousState: { invitedUntil: current.invitedUntil },
          newState: { invitedUntil: sent.invitedUntil },
        });
        return { user: { ...current, invitedUntil: sent.invitedUntil }, notify: sent.notify };
      });
      await afterCommit(outcome, true);
      return viewOf(outcome.user);
    },

    async listEmployerUsers(actor: ActorContext, employerId: string, page: PageQuery) {
      authorize(actor, 'employer.users.list');
      const employer = await withActor(database, actor, (tx) => findEmployer(tx, employerId));
      authorizeRow(actor, 'employer.users.list', employer);
      return listWhere(actor, page, { employerId }, { employerId });
    },

    /**
     * Whether a member has a portal account, and its state, for the member's page: read by those
     * who list the employer's accounts. It carries no address or name, so it is no audited read
     * (docs/decisions/0130-what-reads-are-audited.md).
     */
    async portalAccountOf(
      actor: ActorContext,
      memberId: string,
    ): Promise<MemberPortalAccount | null> {
      authorize(actor, 'employer.users.list');
      const found = await withActor(database, actor, (tx) => findMemberAccount(tx, memberId));
      authorizeRow(actor, 'employer.users.list', found);
      if (!found?.accountId || !found.status) return null;
      return {
        id: found.accountId,
        status: found.status as MemberPortalAccount['status'],
        invitedUntil: found.invitedUntil?.toISOString() ?? null,
      };
    },

    /** Every account within the actor's reach. */
    async list(actor: ActorContext, page: PageQuery) {
      authorize(actor, 'user.list');
      const { tenantId } = boundsOf(actor, 'user.list');
      return listWhere(actor, page, tenantId === null ? {} : { brokerId: tenantId }, {});
    },

    async get(actor: ActorContext, id: string): Promise<UserView> {
      authorize(actor, 'user.read');
      const row = await withActor(database, actor, async (tx) => {
        const found = await findUser(tx, id);
        authorizeRow(actor, 'user.read', placeOf(found));
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
      authorize(actor, 'user.update');
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
        const before = await findUser(tx, id);
        authorizeRow(actor, 'user.update', placeOf(before));
        const existing = before as UserRow;
        checkManageable(actor.role, existing);
        const at = now();
        // An account that was never set up goes back to "invited" when reactivated, with its old
        // link expired: staff resend the invitation. Deactivating one withdraws its link.
        const status =
          change.status === 'active' && existing.passwordHash === null ? 'invited' : change.status;
        const invitedUntil =
          status === undefined
            ? existing.invitedUntil
            : status === 'invited'
              ? (existing.invitedUntil ?? at)
              : null;
        if (status === 'deactivated') await withdrawTokens(tx, existing.id, at);
        const updated = await updateUserRow(tx, existing.id, {
          ...change,
          status: status ?? existing.status,
          invitedUntil,
          updatedAt: at,
        });
        const action =
          status && status !== existing.status
            ? status === 'deactivated'
              ? 'user.deactivated'
              : 'user.reactivated'
            : 'user.updated';
        await audit.record(tx, actor, {
          action,
          entityType: 'user',
          entityId: updated.id,
          tenantId: updated.brokerId,
          previousState: auditStateOf(existing),
          newState: auditStateOf(updated, changedFieldsOf(existing, updated)),
        });
        return viewOf(updated);
      });
    },

    /** `/api/me`: the signed-in user's own account, with its firm's and employer's names. */
    async me(actor: ActorContext): Promise<MeView> {
      authorize(actor, 'me.read');
      const row = await withActor(database, actor, (tx) => findUserWithPlaces(tx, actor.userId));
      if (!row) throw new NotFoundError();
      return { ...viewOf(row.user), firmName: row.firmName, employerName: row.employerName };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
