import type { Role } from './roles.js';

/**
 * Who may do what: the one authorisation policy of the service (docs/api.md, "Who may do what",
 * and docs/decisions/0055-authorisation-policy-table.md). Every service method asks
 * it before anything else, every route names the action it carries out, the API reference and the
 * web UI read it, and the tenant-isolation matrix derives its expected answers from it. An action
 * that is not in this table is refused, and a role not listed for an action is refused it: no role
 * inherits anything from another.
 */

/**
 * How far a role's permission reaches ("own" in docs/api.md, "Who may do what"):
 * - `platform`: every tenant (SuperAdmin, who runs the platform and has no tenant of their own);
 * - `tenant`: the records of the actor's own broker firm;
 * - `employer`: the records of the actor's own employer within that firm;
 * - `member`: the actor's own member record and what belongs to it.
 */
export type Scope = 'platform' | 'tenant' | 'employer' | 'member';

/**
 * The scopes each role can hold, by what its account is attached to: SuperAdmin to no tenant,
 * broker staff to a firm, employer staff to an employer of a firm, a Member to their member
 * record. A scope a role's account cannot anchor (an employer for a BrokerUser) is not expressible.
 */
export interface ScopesOf {
  SuperAdmin: 'platform';
  BrokerAdmin: 'tenant';
  BrokerUser: 'tenant';
  EmployerAdmin: 'tenant' | 'employer';
  EmployerUser: 'tenant' | 'employer';
  Member: 'tenant' | 'employer' | 'member';
}

/**
 * What the scope is checked against when the action is carried out:
 * - `record`: the record the request names. One beyond the actor's reach answers 404, exactly as
 *   one that does not exist, so nobody learns that it does (docs/api.md, "Who may do what").
 * - `parent`: the record a new one is put under (the employer of a new scheme). One beyond reach,
 *   or none at all, answers 403: the write names a parent the actor cannot reach (docs/api.md,
 *   "Errors").
 * - `none`: the request names no record. The action works within the actor's reach: a list
 *   holds only records within it, a new record is put in the actor's own tenant.
 */
export type Target = 'record' | 'parent' | 'none';

export interface Rule {
  /** What the action is, in one line; the API reference shows it beside each route. */
  description: string;
  /** The roles allowed, each with how far it reaches. Any role not listed is refused (403). */
  roles: { readonly [R in Role]?: ScopesOf[R] };
  target: Target;
  /**
   * The action also needs a second factor confirmed within the last 5 minutes, where the account
   * has one (docs/decisions/0110-second-factor.md): a PPS number, a member's whole file, a change
   * to how one signs in.
   */
  stepUp?: true;
}

export const POLICY = {
  // The platform: broker firms (the tenants) and their first accounts.
  'broker.create': {
    description: 'Create a broker firm (a tenant)',
    roles: { SuperAdmin: 'platform' },
    target: 'none',
  },
  'broker.list': {
    description: 'List the broker firms',
    roles: { SuperAdmin: 'platform' },
    target: 'none',
  },
  'broker.read': {
    description: "Read a broker firm's record",
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'broker.update': {
    description: 'Rename a broker firm',
    roles: { SuperAdmin: 'platform' },
    target: 'record',
  },
  'broker.lei.set': {
    description:
      "Set or clear a broker firm's LEI, the entity maintaining its DORA register of information",
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'broker.users.create': {
    description: 'Create a BrokerAdmin or BrokerUser account in a broker firm',
    roles: { SuperAdmin: 'platform' },
    target: 'record',
  },
  'broker.users.list': {
    description: "List a broker firm's accounts",
    roles: { SuperAdmin: 'platform' },
    target: 'record',
  },

  // Accounts.
  'me.read': {
    description: "Read one's own account",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'none',
  },
  'session.end': {
    description: "Sign out, ending every session of one's own account",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'none',
  },
  'account.password.change': {
    description: "Change one's own password, giving the current one",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'none',
  },
  'account.second_factor.read': {
    description: "Read one's own second factors: authenticator app, passkeys, recovery codes left",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'none',
  },
  'account.second_factor.confirm': {
    description:
      "Confirm one's own second factor again, for an action that needs one confirmed recently",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'none',
  },
  'account.second_factor.change': {
    description: "Set up, replace or remove one's own second factors, or issue new recovery codes",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'none',
    stepUp: true,
  },
  'user.second_factor.reset': {
    description:
      'Remove the second factors of an account one looks after whose holder has lost them',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant' },
    target: 'record',
    stepUp: true,
  },
  'user.list': {
    description: 'List accounts',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant' },
    target: 'none',
  },
  'user.read': {
    description: 'Read an account',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'user.update': {
    description:
      'Rename, deactivate or reactivate an account (the roles each may look after: contracts/invitations.ts)',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'user.invitation.resend': {
    description:
      'Send an invited account a new invitation link (the roles each may look after: contracts/invitations.ts)',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'user.colleague.invite': {
    description:
      "Invite a BrokerAdmin or BrokerUser into one's own firm (the roles: contracts/invitations.ts)",
    roles: { BrokerAdmin: 'tenant' },
    target: 'none',
  },

  // Employers.
  'employer.create': {
    description: "Create an employer in one's own firm",
    roles: { BrokerAdmin: 'tenant' },
    target: 'none',
  },
  'employer.list': {
    description: 'List employers',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'none',
  },
  'employer.read': {
    description: "Read an employer's record",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'employer.update': {
    description: "Change an employer's details",
    roles: { BrokerAdmin: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'employer.delete': {
    description: 'Delete an employer',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'employer.users.create': {
    description:
      'Invite an EmployerAdmin, EmployerUser or Member account for an employer (the roles each inviter may give: contracts/invitations.ts)',
    roles: { BrokerAdmin: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'employer.users.list': {
    description: "List an employer's accounts",
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },

  // Schemes. Their type and the funds they offer are the broker's decisions
  // (docs/decisions/0043-scheme-type-and-funds-are-the-brokers.md).
  'scheme.create': {
    description: 'Create a scheme under an employer',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'parent',
  },
  'scheme.list': {
    description: 'List schemes',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'none',
  },
  'scheme.read': {
    description: "Read a scheme's record",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'scheme.update': {
    description: "Change a scheme's details (its type needs scheme.type.set too)",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'scheme.type.set': {
    description: "Change a scheme's type (DB, DC, PRSA, RAC), or whether an RAC is a trust",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'scheme.delete': {
    description: 'Delete a scheme made by mistake, one that never had a member',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'scheme.wind_up': {
    description: 'Wind a scheme up on a day for a reason: read only from then on',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },

  // Members.
  'member.create': {
    description: 'Add a member to a scheme',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'member.list': {
    description: 'List the members of a scheme',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'member.read': {
    description: "Read a member's record, the PPS number masked",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'member.update': {
    description: "Correct a member's record",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'member.delete': {
    description: 'Delete a member',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'member.pps.reveal': {
    description: "Reveal a member's PPS number, saying why (audited as member.pps_decrypted)",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
    stepUp: true,
  },
  'member.pps.reveals.list': {
    description: "Read who revealed a member's PPS number, when and why",
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'member.export': {
    description: 'Export everything held about a member (GDPR Art. 15 and 20)',
    roles: { BrokerAdmin: 'tenant', Member: 'member' },
    target: 'record',
    stepUp: true,
  },
  'member.contact.update': {
    description: "Change one's own e-mail and postal address as a member",
    roles: { Member: 'member' },
    target: 'record',
  },
  'member.import': {
    description: 'Import members into a scheme from a CSV file',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },

  // A member's lifecycle (docs/decisions/0135-members-lifecycle.md): the employer knows when
  // someone leaves or rejoins; benefits, transfers and deaths are the administrator's work.
  'member.lifecycle.read': {
    description: "Read a member's status, its history, what a leaver may do and what was paid out",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'member.dependants.read': {
    description: 'Read the people to contact about a member’s death benefits',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },
  'member.leave': {
    description: 'Record that a member left service',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'member.rejoin': {
    description: 'Record that a deferred member rejoined',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'member.leaving_choice': {
    description: "Record a leaver's choice: a preserved benefit or a refund of contributions",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'member.transfer_out': {
    description: "Record a member's transfer out, paying out the value of their benefit",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'member.retire': {
    description: "Record a member's retirement, paying out the value of their funds",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'member.death': {
    description: "Record a member's death and the people to contact",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'member.status.correct': {
    description: "Undo the latest change of a member's status, with the reason",
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'member.leaving_statement.read': {
    description: "Read a leaver's statement of their options, as a PDF",
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      Member: 'member',
    },
    target: 'record',
  },

  // Contributions: recorded by the firm's staff and by the employer's administrator, who submits
  // payroll.
  'contribution.list': {
    description: "Read a member's contributions",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'contribution.create': {
    description: 'Record a contribution for a member',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'contribution.adjust': {
    description: 'Correct a contribution with an adjustment and its reason',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'contribution.notes.read': {
    description: 'Read the reasons staff gave for corrections (staff notes)',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'none',
  },
  'contribution.import': {
    description: "Import contributions of a scheme's members from a CSV file",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'payroll.read': {
    description: "Read one pay period of a scheme's payroll",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'payroll.save': {
    description: "Save one pay period of a scheme's payroll",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'payroll.periods.list': {
    description: "Read a scheme's contribution totals per pay period",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  // Contribution remittance (docs/decisions/0136-contribution-remittance.md): who records a
  // payment as who records contributions; the firm's staff and the employer's administrator read
  // the calendar and the trustees' late-payment report. A Member never: it is the employer's.
  'remittance_receipt.create': {
    description: "Record a payment received from an employer for a month's deductions",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'remittance_receipt.list': {
    description: 'List the payments received from an employer, the latest received first',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
    },
    target: 'record',
  },
  'remittance_receipt.void': {
    description: 'Remove a payment recorded by mistake, saying why; it is kept, and counts no more',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'remittance.read': {
    description:
      "Read an employer's remittance calendar: each month's deductions, what was received, and when",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
    },
    target: 'record',
  },
  'late_remittance.list': {
    description:
      "Read a scheme's late-payment report: its employer's months remitted late or missing",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
    },
    target: 'record',
  },

  // Data-subject requests (docs/decisions/0137-data-subject-requests.md): the firm's staff record
  // and answer them; SuperAdmin reads, audited. A member makes their own and reads their own,
  // received the day they make it: the controller facilitates the exercise of the rights (GDPR
  // Art. 12(2)). Employers never.
  'data_request.create': {
    description:
      'Record a request a member made under the GDPR, with the day it was received; a member makes their own, received today',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', Member: 'member' },
    target: 'record',
  },
  'data_request.list': {
    description:
      "List the firm's data-subject requests, the earliest due first; a member lists their own",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      Member: 'member',
    },
    target: 'none',
  },
  'data_request.read': {
    description: 'Read a data-subject request, with its due day and how it was answered',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'data_request.extend': {
    description: 'Extend a data-subject request by two months, within its first month, saying why',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'data_request.complete': {
    description: 'Record that a data-subject request was answered',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'data_request.refuse': {
    description: 'Refuse a data-subject request on a ground the GDPR gives, saying why',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'data_request.erase': {
    description:
      'Carry out an erasure request: erase what the retention schedule no longer requires, refuse the rest with its rule',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },

  // Retention and restriction (docs/decisions/0149-retention-and-erasure.md): the firm's staff
  // read how long a member's record is kept and restrict disputed data.
  'member.retention.read': {
    description: "Read how long each part of a member's record is kept, and why",
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'member.restrict': {
    description: "Restrict a member's data while it is disputed, or lift the restriction",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },

  // Funds: what a scheme offers is the trustees' investment decision; a member chooses among them.
  'fund.list': {
    description: "List a scheme's funds (a member: those of their own scheme)",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'fund.create': {
    description: 'Offer a fund in a scheme',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'parent',
  },
  'fund.update': {
    description: 'Rename a fund, set its ISIN or close it',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'fund_choice.list': {
    description: "Read a member's fund choices",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'fund_choice.set': {
    description: "Change a member's fund choice",
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      Member: 'member',
    },
    target: 'record',
  },

  // DC money (docs/decisions/0127-dc-money.md). Prices and the default fund are the firm's to
  // keep, as the funds a scheme offers are; a member reads their own scheme's prices, their own
  // holdings and ledger, and switches what they hold, as they change their own fund choice.
  'scheme.default_fund.set': {
    description: "Set the fund a scheme's money goes to when a member has made no fund choice",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'fund_price.record': {
    description: "Record a fund's unit prices, correcting a day's price where one is given again",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'fund_price.import': {
    description: "Import a scheme's fund prices from a CSV file",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'fund_price.list': {
    description: "Read a fund's unit prices (a member: those of their own scheme's funds)",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'holdings.read': {
    description: 'Read what a member holds in each fund on a day, and its value',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'member_transaction.list': {
    description: "Read every movement of a member's units",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'fund_switch.request': {
    description: 'Switch what a member holds into other funds of their scheme',
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'fund_switch.list': {
    description: "Read a member's fund switches",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'fund_assets.read': {
    description: 'Read the units all members of a scheme hold in each fund, and their value',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },

  // Imports.
  'import.list': {
    description: "List a scheme's imports",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'import.read': {
    description: 'Read an import',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },

  // Governance under IORP II (docs/decisions/0059-governance-rules.md): writers BrokerUser and up,
  // an EmployerAdmin for their own employer's schemes; readers EmployerUser and up within reach.
  'trustee.list': {
    description: "List a scheme's trustees",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'trustee.read': {
    description: 'Read a trustee and its history',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'trustee.create': {
    description: 'Appoint a trustee to a scheme',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'trustee.update': {
    description: 'Change a trustee',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'trustee.delete': {
    description: 'Delete a trustee (kept, hidden)',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'trustee_training.list': {
    description: "List a trustee's training",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'trustee_training.create': {
    description: 'Record training a trustee, or a director of a corporate trustee, completed',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'filing.list': {
    description: "List a scheme's filings of its year: annual report, return, compliance statement",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'filing.read': {
    description: 'Read a filing of the scheme year',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'filing.create': {
    description: 'Record a filing of the scheme year',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'filing.update': {
    description: 'Change a filing of the scheme year: complete it, or say whether it was audited',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  // Conflicts of interest (guidance: the Pensions Authority's Code of Practice for trustees): who
  // reads and writes them as the filings.
  'conflict.list': {
    description: "List a scheme's conflicts of interest, closed ones included",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'conflict.read': {
    description: 'Read a conflict of interest',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'conflict.create': {
    description: 'Record a conflict of interest declared in a scheme',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'conflict.update': {
    description: 'Change how a conflict of interest is managed, or close it',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'kfh.list': {
    description: "List a scheme's key function holders",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'kfh.read': {
    description: 'Read a key function holder and its history',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'kfh.create': {
    description: 'Appoint a key function holder',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'kfh.update': {
    description: 'Change a key function holder',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'kfh.delete': {
    description: 'Delete a key function holder (kept, hidden)',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'policy.list': {
    description: "List a scheme's written policies",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'policy.read': {
    description: 'Read a written policy and its history',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'policy.create': {
    description: 'Draft a written policy or a new version of one',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'policy.update': {
    description: 'Change a written policy',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'policy.approve': {
    description: 'Record the trustees’ approval of a written policy',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'policy.significant_change': {
    description: 'Record a significant change that brings a policy’s review forward',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'policy.delete': {
    description: 'Delete a written policy (kept, hidden)',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'ora.list': {
    description: "List a scheme's own-risk assessments",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'ora.read': {
    description: 'Read an own-risk assessment and its history',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'ora.create': {
    description: 'Record an own-risk assessment',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'ora.update': {
    description: 'Change an own-risk assessment',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'ora.delete': {
    description: 'Delete an own-risk assessment (kept, hidden)',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'significant_change.list': {
    description: 'List the significant changes recorded for a scheme',
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'risk_profile.change': {
    description: "Record a significant change in a scheme's risk profile",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'compliance.read': {
    description: "Read a scheme's compliance with its governance obligations",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'compliance.calendar': {
    description: "Read the governance due dates across one's schemes",
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'none',
  },
  'compliance.dashboard': {
    description: "Read every scheme's governance standing and what falls due",
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'none',
  },

  // Documents (docs/decisions/0062-document-vault.md): writers BrokerUser and up, an EmployerAdmin
  // for their own employer's schemes; readers EmployerUser and up within reach, and a Member their
  // own scheme's member-facing documents (the service keeps the rest from them). A file's bytes
  // leave only through a signed URL: SuperAdmin runs the platform and reads a firm's records, but
  // has no business in its deeds and benefit statements, so is not given one
  // (docs/decisions/0062-document-vault.md).
  'document.list': {
    description: "List a scheme's documents (a member: their scheme's member-facing ones)",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'document.read': {
    description: "Read a document's record (a member: a member-facing one of their scheme)",
    roles: {
      SuperAdmin: 'platform',
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'document.download': {
    description: 'Get a signed URL, good for 5 minutes, to download a document',
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
      Member: 'member',
    },
    target: 'record',
  },
  'document.upload': {
    description: 'Upload a document, or a new version of one, to a scheme',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'document.delete': {
    description: 'Delete a version of a document (kept, hidden)',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  // The evidence pack (docs/decisions/0065-evidence-pack.md): the scheme's governance and current
  // documents in one archive, for the Pensions Authority. Prepared by those who keep the registers
  // (the documents' writers); a reader can already see each part, and SuperAdmin has no business in
  // a firm's deeds, as for document.download.
  'scheme.evidence_pack': {
    description:
      "Download a scheme's evidence pack: its governance summary, documents and manifest",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },

  // AI (docs/decisions/0066-ai-provider-guard-and-chat.md). Chat answers from public regulatory
  // text, for the people who run schemes: the firm's staff and the employer's. Not members (a
  // regulatory assistant is not advice to a member), not SuperAdmin (usage is metered and paid per
  // tenant, and SuperAdmin has none). Drafts are governance writing, so their writers and readers
  // are those of the written policies.
  'ai.chat': {
    description: 'Ask a question about the pensions regulations, answered from cited sources',
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'none',
  },
  'ai.settings.read': {
    description: "Read whether the firm's own AI provider key is set, its limits and its usage",
    roles: { BrokerAdmin: 'tenant' },
    target: 'none',
  },
  'ai.settings.update': {
    description: "Set or remove the firm's own AI provider key and its monthly limits",
    roles: { BrokerAdmin: 'tenant' },
    target: 'none',
  },
  'ai.draft.create': {
    description:
      'Draft a written policy, an ORA outline or an appointment letter from scheme facts',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'parent',
  },
  'ai.draft.list': {
    description: "List a scheme's drafts",
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'ai.draft.read': {
    description: 'Read a draft',
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'ai.draft.update': {
    description: "Edit a draft's text before it is approved",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'ai.draft.review': {
    description: 'Mark a draft as reviewed',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'ai.draft.approve': {
    description: "Approve a reviewed draft's text, recording what changed from the generated text",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'ai.draft.issue': {
    description: 'Issue an approved draft as the text of a draft written policy',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },

  // Auto-enrolment readiness (docs/decisions/0068-auto-enrolment-readiness.md): an employer's
  // payroll holds employees who are not members, so it is the employer's and its broker's alone. An
  // EmployerAdmin uploads for their own employer and broker staff for any of theirs; employer staff
  // read their own employer's reports. SuperAdmin and Members are given none of it: the payroll is
  // not theirs to see.
  'ae_payroll.import': {
    description: "Upload an employer's payroll (CSV) for the auto-enrolment assessment",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'ae_payroll.read': {
    description: 'Follow one payroll upload of an employer: its progress and its issues',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'ae_payroll.list': {
    description: "List an employer's payroll uploads: when, by whom, and what each covers",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'ae_payroll.delete': {
    description: 'Delete a payroll upload, erasing the employees only it named',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', EmployerAdmin: 'employer' },
    target: 'record',
  },
  'auto_enrolment.read': {
    description: "Read an employer's auto-enrolment assessment",
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'auto_enrolment.export': {
    description: "Export an employer's auto-enrolment assessment as CSV",
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
    // Every employee's name and pay, in a file that leaves the service.
    stepUp: true,
  },
  'auto_enrolment.summary': {
    description: "Download an employer's auto-enrolment summary as PDF",
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'auto_enrolment.cost': {
    description:
      "Compare an employer's cost of bringing below-standard members up to the minimum standard against My Future Fund",
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'record',
  },
  'auto_enrolment.overview': {
    description: "Read every employer's auto-enrolment totals",
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },

  // The firm's register of personal-data breaches (docs/decisions/0138-personal-data-breaches.md):
  // the firm's staff record one; a BrokerAdmin, who answers for the firm to the Commission,
  // assesses, records the notifications and closes it. An employer and a member never see it.
  'data_breach.create': {
    description: 'Record a personal-data breach in the firm’s register',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },
  'data_breach.list': {
    description: 'List the firm’s personal-data breaches, the latest recorded first',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },
  'data_breach.read': {
    description: 'Read a personal-data breach with its 72-hour clock',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'data_breach.update': {
    description: 'Change the assessment of a personal-data breach not yet closed',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'data_breach.notify': {
    description: 'Record that a breach was notified to the Data Protection Commission',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'data_breach.members_told': {
    description: 'Record that the people affected by a breach were told, and how',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'data_breach.close': {
    description: 'Close a personal-data breach with its outcome',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },

  // DORA's register of ICT incidents (docs/decisions/0139-dora-ict-incidents.md): the firm's
  // staff record, classify and prepare the reports of an incident; a BrokerAdmin, who answers for
  // the trustees to the Pensions Authority, records that a report was sent. SuperAdmin records an
  // incident of the platform itself into the register of each firm it reached, and reads them.
  'ict_incident.create': {
    description:
      'Record an ICT incident; SuperAdmin records one of the platform for the firms it reached',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },
  'ict_incident.list': {
    description: 'List the ICT incidents, the latest recorded first',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },
  'ict_incident.read': {
    description: 'Read an ICT incident with the deadlines of its reports',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'ict_incident.update': {
    description: 'Change the record of an ICT incident: what it affects, its cause, its recovery',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'ict_incident.classify': {
    description: 'Classify an ICT incident against the criteria of RTS (EU) 2024/1772',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'ict_incident.report': {
    description: 'Record that a report of a major ICT incident was sent to the Pensions Authority',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'ict_incident.template': {
    description: 'Read a report of an ICT incident pre-filled in the template of ITS (EU) 2025/302',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },

  // The firm's register of its other ICT providers (docs/decisions/0139-dora-ict-incidents.md):
  // kept by its staff; SuperAdmin reads.
  'ict_provider.create': {
    description: 'Add an ICT provider to the firm’s register',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },
  'ict_provider.list': {
    description: 'List the firm’s ICT providers',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },
  'ict_provider.update': {
    description: 'Change an ICT provider in the firm’s register, its end date included',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  // The register of information of ITS (EU) 2024/2956 (docs/decisions/0139-dora-ict-incidents.md):
  // the firm's staff, who keep its register of providers, take it out for the Pensions Authority.
  'ict_register.export': {
    description:
      'Export the firm’s register of information (ITS (EU) 2024/2956) as CSV files in one ZIP, and read which of its entities lack an LEI',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },

  // Pension Benefit Statements (docs/decisions/0141-pension-benefit-statements.md). Assumption
  // sets are the platform's (SuperAdmin) or a firm's own (its staff); the firm's staff
  // prepare a run; the trustees' side, a BrokerAdmin, approves it before it is issued. A member
  // reads their own statements; an employer never sees them.
  'statement_assumptions.create': {
    description: 'Add a projection assumption set: the platform’s, or the firm’s own',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },
  'statement_assumptions.list': {
    description: 'List the projection assumption sets: the platform’s and the firm’s own',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'none',
  },
  'statement_assumptions.read': {
    description: 'Read a projection assumption set',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'statement_assumptions.update': {
    description: 'Correct a projection assumption set no run has used',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'statement_run.create': {
    description: 'Start preparing a scheme’s Pension Benefit Statements for an information date',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'statement_run.list': {
    description: 'List a scheme’s statement runs',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'statement_run.read': {
    description: 'Read a statement run: its progress, its exceptions and its statements',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'statement_run.approve': {
    description: 'Record the trustees’ approval of a statement run',
    roles: { BrokerAdmin: 'tenant' },
    target: 'record',
  },
  'statement_run.issue': {
    description:
      'Issue an approved run: each statement becomes its member’s document, with a notice',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },
  'statement.list': {
    description: 'List a member’s Pension Benefit Statements',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', Member: 'member' },
    target: 'record',
  },
  'statement.read': {
    description: 'Read a Pension Benefit Statement as its member sees it, as a PDF',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant', Member: 'member' },
    target: 'record',
  },
  // A member asks the firm for their statement on paper; the firm's staff record the request
  // (docs/decisions/0141-pension-benefit-statements.md, "Paper on request").
  'statement.paper': {
    description:
      'Mark a member’s statement for printing on their request, or take it off the printing list',
    roles: { BrokerAdmin: 'tenant', BrokerUser: 'tenant' },
    target: 'record',
  },

  // Work lists and the audit log.
  'overview.read': {
    description: "Read the work waiting on one's home page",
    roles: {
      BrokerAdmin: 'tenant',
      BrokerUser: 'tenant',
      EmployerAdmin: 'employer',
      EmployerUser: 'employer',
    },
    target: 'none',
  },
  'audit.read': {
    description: 'Read the audit log',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant' },
    target: 'none',
  },
  'audit.export': {
    description: 'Export the audit log as CSV',
    roles: { SuperAdmin: 'platform', BrokerAdmin: 'tenant' },
    target: 'none',
  },
} as const satisfies Record<string, Rule>;

/** The name of an action in the table: any other name is a compile error. */
export type Action = keyof typeof POLICY;

/** The actions whose scope is checked against a record the request names. */
export type RecordAction = {
  [A in Action]: (typeof POLICY)[A]['target'] extends 'none' ? never : A;
}[Action];

export const ACTIONS = Object.keys(POLICY) as Action[];

/** The rule of an action, or undefined for a name the table does not hold: deny by default. */
export function ruleOf(action: string): Rule | undefined {
  return Object.hasOwn(POLICY, action) ? POLICY[action as Action] : undefined;
}
