import { holdsUnits } from '../../../contracts/dc-money-rules.js';
import { fundListQuery } from '../../../contracts/funds.js';
import { memberTransactionQuery, switchListQuery } from '../../../contracts/investments.js';
import {
  MEMBER_PAGE_SIZES,
  type MemberPageQuery,
  type MemberPageView,
} from '../../../contracts/portal.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, isAllowed } from '../../platform/tenancy/authorize.js';
import { type ContributionsService, contributionListQuery } from '../contributions/index.js';
import type { FundsService } from '../funds/index.js';
import type { HoldingsService, SwitchesService } from '../investments/index.js';
import type { LifecycleService } from '../lifecycle/index.js';
import type { MembersService } from '../members/index.js';
import type { RunsService } from '../statements/index.js';
import type { UsersService } from '../users/index.js';
import type { PortalService } from './portal.service.js';

export interface MemberPageDeps {
  members: MembersService;
  portal: PortalService;
  funds: FundsService;
  contributions: ContributionsService;
  holdings: HoldingsService;
  switches: SwitchesService;
  lifecycle: LifecycleService;
  /** A member's statements, as their own route reads them. */
  statementRuns: Pick<RunsService, 'ofMember'>;
  /** Whether the member has a portal account, for those who invite members. */
  users: Pick<UsersService, 'portalAccountOf'>;
}

/** Every page of a list, read a page at a time as its route would serve them. */
async function allPages<T>(
  read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    all.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return all;
}

/**
 * The member page in one request (docs/decisions/0118-pages-composed-on-the-server.md). It asks
 * each part of the service that owns it, exactly as that part's own route does, so each is
 * authorised by its own action, read-audited as it would be, and answers the same shape; what it
 * saves is the browser's round trips and the person's request allowance.
 */
export function createMemberPageService({
  members,
  portal,
  funds,
  contributions,
  holdings,
  switches,
  lifecycle,
  statementRuns,
  users,
}: MemberPageDeps) {
  return {
    async read(
      actor: ActorContext,
      memberId: string,
      query: MemberPageQuery,
    ): Promise<MemberPageView> {
      authorize(actor, 'member.read');
      // The member first: one out of reach ends here as a 404, before any part is read.
      const member = await members.get(actor, memberId);
      const summary = await portal.summary(actor, memberId);
      const membership = await lifecycle.read(actor, memberId);
      const fundChoices = await funds.choicesOfMember(
        actor,
        memberId,
        fundListQuery.parse({ limit: MEMBER_PAGE_SIZES.fundChoices }),
      );
      const openFunds = isAllowed(actor, 'fund_choice.set')
        ? await allPages((cursor) =>
            funds.listOfScheme(actor, member.schemeId, fundListQuery.parse({ limit: 100, cursor })),
          )
        : null;
      const table = await contributions.listOfMember(
        actor,
        memberId,
        contributionListQuery.parse({ limit: MEMBER_PAGE_SIZES.contributions }),
      );
      const chart = await allPages((cursor) =>
        contributions.listOfMember(
          actor,
          memberId,
          contributionListQuery.parse({ limit: 100, cursor, from: query.chartFrom }),
        ),
      );
      const money = holdsUnits(summary.scheme.type)
        ? {
            holdings: await holdings.ofMember(actor, memberId, {}),
            valueHistory: await holdings.valueHistory(actor, memberId, {}),
            transactions: await holdings.transactionsOfMember(
              actor,
              memberId,
              memberTransactionQuery.parse({ limit: MEMBER_PAGE_SIZES.transactions }),
            ),
            switches: await switches.listOfMember(
              actor,
              memberId,
              switchListQuery.parse({ limit: MEMBER_PAGE_SIZES.switches }),
            ),
          }
        : null;
      const statements = isAllowed(actor, 'statement.list')
        ? await statementRuns.ofMember(actor, memberId)
        : null;
      const portalAccount = isAllowed(actor, 'employer.users.list')
        ? { account: await users.portalAccountOf(actor, memberId) }
        : null;
      return {
        member,
        summary,
        lifecycle: membership,
        fundChoices,
        openFunds,
        contributions: table,
        chart,
        money,
        statements,
        portalAccount,
      };
    },
  };
}

export type MemberPageService = ReturnType<typeof createMemberPageService>;
