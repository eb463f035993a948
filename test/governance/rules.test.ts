import { describe, expect, it } from 'vitest';
import {
  addYears,
  assessScheme,
  dateStatus,
  dueAfterChange,
  dueAfterChanges,
  GOVERNANCE_RULES,
  internalAuditConflict,
  isReminder,
  KEY_FUNCTIONS,
  type KeyFunctionHolderFacts,
  nextReviewDue,
  type PolicyKind,
  reminderStage,
  requiredKeyFunctions,
  requiredPolicyKinds,
  type SchemeGovernanceFacts,
  SIGNIFICANT_CHANGE_EFFECTS,
  SIGNIFICANT_CHANGE_GRACE_DAYS,
  type TrusteeFacts,
} from '../../src/contracts/governance-rules.js';
import { addDays } from '../../src/contracts/irish-dates.js';

/**
 * The governance rules of IORP II against worked dates (docs/decisions/0059-governance-rules.md).
 * "Today" is a parameter of every rule, so each case names the day it is judged on.
 */

const holder = (
  fields: Partial<KeyFunctionHolderFacts> & Pick<KeyFunctionHolderFacts, 'function'>,
): KeyFunctionHolderFacts => ({
  id: `kfh-${fields.function}-${fields.holderName ?? 'x'}`,
  holderName: `Holder of ${fields.function}`,
  appointedOn: '2022-01-01',
  endedOn: null,
  fitnessAndProbity: 'confirmed',
  alsoServesEmployer: false,
  conflictsProtocol: null,
  notifiedOn: '2022-01-20',
  ...fields,
});

/** A DC scheme with every register complete: policies approved 10/01/2024, ORA on 01/03/2024. */
function completeScheme(overrides: Partial<SchemeGovernanceFacts> = {}): SchemeGovernanceFacts {
  const type = overrides.type ?? 'DC';
  return {
    type,
    racKind: type === 'RAC' ? 'trust' : null,
    trustees: [
      {
        id: 't1',
        kind: 'individual',
        directorCount: null,
        appointedOn: '2020-01-01',
        endedOn: null,
        fitnessAndProbity: 'confirmed',
      },
      {
        id: 't2',
        kind: 'individual',
        directorCount: null,
        appointedOn: '2020-01-01',
        endedOn: null,
        fitnessAndProbity: 'confirmed',
      },
    ],
    keyFunctionHolders: requiredKeyFunctions(type).map((fn) => holder({ function: fn })),
    policies: requiredPolicyKinds(type).map((kind: PolicyKind) => ({
      id: `policy-${kind}`,
      kind,
      status: 'approved' as const,
      approvedOn: '2024-01-10',
      nextReviewDue: '2027-01-10',
    })),
    oraReports: [{ id: 'ora-1', performedOn: '2024-03-01', nextDue: '2027-03-01' }],
    significantChanges: [],
    ...overrides,
  };
}

const obligation = (
  facts: SchemeGovernanceFacts,
  today: string,
  kind: string,
  subjectId?: string,
) =>
  assessScheme(facts, today).obligations.find(
    (entry) => entry.kind === kind && (subjectId === undefined || entry.subjectId === subjectId),
  );

describe('review cycles', () => {
  it('counts the next review three years from when the last was due, not from a late completion', () => {
    // Due 10/01/2027, reviewed late on 20/05/2027: the next is due 10/01/2030, not 20/05/2030.
    expect(nextReviewDue('2027-05-20', '2027-01-10')).toBe('2030-01-10');
    // And the one after, reviewed on time on 02/12/2029: due 02/12/2032, within three years of it.
    expect(nextReviewDue('2029-12-02', '2030-01-10')).toBe('2032-12-02');
  });

  it('starts a new cycle from an early review, since the next must come within three years of it', () => {
    expect(nextReviewDue('2026-06-30', '2027-01-10')).toBe('2029-06-30');
  });

  it('counts the first review from the approval', () => {
    expect(nextReviewDue('2024-01-10', null)).toBe('2027-01-10');
  });

  it('keeps the cycle’s dates for a review more than a whole cycle late, never a date already past', () => {
    // Due 01/03/2020 and done only on 15/07/2024: the cycle's dates are 2023, 2026, … so 2026.
    expect(nextReviewDue('2024-07-15', '2020-03-01')).toBe('2026-03-01');
  });

  it('moves 29 February to 28 February in a common year', () => {
    expect(addYears('2024-02-29', 3)).toBe('2027-02-28');
    expect(addYears('2024-02-29', 4)).toBe('2028-02-29');
  });

  it('brings a review forward to 30 days after a significant change recorded after the last review', () => {
    // The grace is this service's (the law says "without delay", or names no day), set in one place.
    expect(SIGNIFICANT_CHANGE_GRACE_DAYS).toBe(30);
    expect(dueAfterChange('2025-09-15')).toBe(addDays('2025-09-15', SIGNIFICANT_CHANGE_GRACE_DAYS));
    expect(dueAfterChanges('2027-01-10', '2024-01-10', ['2025-09-15'])).toBe('2025-10-15');
    // Across a month end and into a leap day.
    expect(dueAfterChanges('2029-01-10', '2027-01-10', ['2028-01-30'])).toBe('2028-02-29');
    // A change before the last review was dealt with by it.
    expect(dueAfterChanges('2027-01-10', '2024-01-10', ['2023-11-01'])).toBe('2027-01-10');
    // A change so near the cycle's end that 30 days more would pass it leaves the cycle's date.
    expect(dueAfterChanges('2027-01-10', '2024-01-10', ['2026-12-20'])).toBe('2027-01-10');
  });

  it('counts the cycle after a review that answered a significant change from when it was due', () => {
    // Change on 15/09/2025: the review is due 15/10/2025. Reviewed late on 01/12/2025: next
    // 15/10/2028; reviewed within the 30 days, on 01/10/2025: next 01/10/2028.
    const due = dueAfterChanges('2027-01-10', '2024-01-10', ['2025-09-15']);
    expect(nextReviewDue('2025-12-01', due)).toBe('2028-10-15');
    expect(nextReviewDue('2025-10-01', due)).toBe('2028-10-01');
  });

  it('is due soon from 60 days before, overdue from the day after', () => {
    expect(dateStatus('2027-01-10', '2026-11-10')).toBe('ok');
    expect(dateStatus('2027-01-10', '2026-11-11')).toBe('due_soon');
    expect(dateStatus('2027-01-10', '2027-01-10')).toBe('due_soon');
    expect(dateStatus('2027-01-10', '2027-01-11')).toBe('overdue');
  });
});

describe('reminders', () => {
  it('reach each stage on its day: 60, 30, 14, 7 days before, on the day, then weekly', () => {
    const due = '2027-01-10';
    expect(reminderStage(due, '2026-11-10')).toBeNull();
    expect(reminderStage(due, '2026-11-11')).toBe('before_60');
    expect(reminderStage(due, '2026-12-10')).toBe('before_60');
    expect(reminderStage(due, '2026-12-11')).toBe('before_30');
    expect(reminderStage(due, '2026-12-27')).toBe('before_14');
    expect(reminderStage(due, '2027-01-03')).toBe('before_7');
    expect(reminderStage(due, '2027-01-10')).toBe('due_today');
    expect(reminderStage(due, '2027-01-11')).toBe('due_today');
    expect(reminderStage(due, '2027-01-16')).toBe('due_today');
    expect(reminderStage(due, '2027-01-17')).toBe('overdue_1');
    expect(reminderStage(due, '2027-01-23')).toBe('overdue_1');
    expect(reminderStage(due, '2027-01-24')).toBe('overdue_2');
    expect(reminderStage(due, '2027-02-14')).toBe('overdue_5');
  });

  it('are of the dated obligations that are not OK, and begin on the day one turns due soon', () => {
    const obligation = (dueOn: string | undefined, today: string) => ({
      dueOn,
      status: dueOn === undefined ? ('incomplete' as const) : dateStatus(dueOn, today),
    });
    // A duty done, its next date 61 days off: no reminder, in the list or by e-mail.
    expect(isReminder(obligation('2027-01-10', '2026-11-10'))).toBe(false);
    expect(reminderStage('2027-01-10', '2026-11-10')).toBeNull();
    // From 60 days before, both.
    expect(isReminder(obligation('2027-01-10', '2026-11-11'))).toBe(true);
    expect(reminderStage('2027-01-10', '2026-11-11')).toBe('before_60');
    // A register still to fill in has no date to be reminded of.
    expect(isReminder(obligation(undefined, '2026-11-11'))).toBe(false);
  });

  it('after days without a run, is at the latest stage only', () => {
    // Nothing ran from 60 days before until 5 days before: the 7-day stage is the one to send.
    expect(reminderStage('2027-01-10', '2027-01-05')).toBe('before_7');
  });
});

describe('a scheme’s compliance', () => {
  const today = '2025-06-01';

  it('is ok with every register complete and nothing due within 60 days', () => {
    const { status, obligations } = assessScheme(completeScheme(), today);
    expect(status).toBe('ok');
    expect(obligations.every((entry) => entry.citation.length > 0)).toBe(true);
    expect(obligations.every((entry) => entry.label === 'law')).toBe(true);
  });

  it('is incomplete with one trustee, and says why', () => {
    const facts = completeScheme();
    const one = completeScheme({ trustees: facts.trustees.slice(0, 1) });
    expect(assessScheme(one, today).status).toBe('incomplete');
    expect(obligation(one, today, 'trustees')).toMatchObject({
      status: 'incomplete',
      reason: expect.stringContaining('one trustee'),
      label: 'law',
      citation: 'Pensions Act 1990 s.64AC(1)–(2)',
    });
    expect(GOVERNANCE_RULES.trustees).toEqual({
      label: 'law',
      citation: 'Pensions Act 1990 s.64AC(1)–(2)',
    });
  });

  it('accepts a corporate trustee with two directors, not with one', () => {
    const corporate = (directorCount: number) =>
      completeScheme({
        trustees: [
          {
            id: 'c',
            kind: 'corporate',
            directorCount,
            appointedOn: '2020-01-01',
            endedOn: null,
            fitnessAndProbity: 'confirmed',
          },
        ],
      });
    expect(obligation(corporate(2), today, 'trustees')?.status).toBe('ok');
    expect(obligation(corporate(1), today, 'trustees')).toMatchObject({
      status: 'incomplete',
      reason: expect.stringContaining('fewer than 2 directors'),
    });
  });

  it('no longer counts a trustee whose appointment has ended', () => {
    const [first, second] = completeScheme().trustees as [TrusteeFacts, TrusteeFacts];
    const ended = completeScheme({ trustees: [first, { ...second, endedOn: '2025-05-31' }] });
    expect(obligation(ended, today, 'trustees')?.status).toBe('incomplete');
  });

  it('needs an actuarial holder and policy for a DB scheme, not for a DC scheme', () => {
    expect(requiredKeyFunctions('DB')).toEqual(KEY_FUNCTIONS);
    expect(requiredKeyFunctions('DC')).not.toContain('actuarial');
    const db = completeScheme({ type: 'DB' });
    const withoutActuary = {
      ...db,
      keyFunctionHolders: db.keyFunctionHolders.filter((entry) => entry.function !== 'actuarial'),
    };
    expect(assessScheme(withoutActuary, today).status).toBe('incomplete');
    expect(
      assessScheme(withoutActuary, today).obligations.find(
        (entry) => entry.kind === 'key_function' && entry.reason.includes('actuarial'),
      ),
    ).toMatchObject({ status: 'incomplete', ...GOVERNANCE_RULES.actuarialFunction });
    expect(assessScheme(db, today).status).toBe('ok');
  });

  it('names no "compliance" key function anywhere', () => {
    expect(KEY_FUNCTIONS).not.toContain('compliance');
    for (const type of ['DB', 'DC', 'RAC', 'PRSA'] as const) {
      expect(requiredKeyFunctions(type)).not.toContain('compliance');
    }
  });

  it('refuses internal audit to a holder of another key function, either way round', () => {
    const riskHolder = { function: 'risk_management' as const, holderName: 'Máire Ní Bhriain' };
    expect(
      internalAuditConflict({ function: 'internal_audit', holderName: ' máire  ní bhriain ' }, [
        riskHolder,
      ]),
    ).toContain('may hold no other key function');
    expect(
      internalAuditConflict({ function: 'risk_management', holderName: 'Seán Ó Riain' }, [
        { function: 'internal_audit', holderName: 'Seán Ó Riain' },
      ]),
    ).toContain(GOVERNANCE_RULES.keyFunctions.citation);
    // Risk management and actuarial may share a holder.
    expect(
      internalAuditConflict({ function: 'actuarial', holderName: 'Máire Ní Bhriain' }, [
        riskHolder,
      ]),
    ).toBeNull();
  });

  it('flags an internal audit holder who also holds another function in the register', () => {
    const facts = completeScheme();
    const clash = completeScheme({
      keyFunctionHolders: [
        holder({ function: 'risk_management', holderName: 'Pat Doyle' }),
        holder({ function: 'internal_audit', holderName: 'Pat Doyle' }),
      ],
    });
    expect(facts.keyFunctionHolders).toHaveLength(2);
    expect(assessScheme(clash, today).status).toBe('incomplete');
    expect(
      assessScheme(clash, today).obligations.some((entry) =>
        entry.reason.includes('also holds another key function'),
      ),
    ).toBe(true);
  });

  it('needs confirmed fitness and probity, and a conflicts protocol for a holder serving the employer too', () => {
    const pending = completeScheme({
      keyFunctionHolders: [
        holder({ function: 'risk_management', fitnessAndProbity: 'pending' }),
        holder({ function: 'internal_audit', alsoServesEmployer: true }),
      ],
    });
    const kinds = assessScheme(pending, today)
      .obligations.filter((entry) => entry.status === 'incomplete')
      .map((entry) => entry.kind);
    expect(kinds).toEqual(['fitness_and_probity', 'conflicts_protocol']);
    const withProtocol = completeScheme({
      keyFunctionHolders: [
        holder({ function: 'risk_management' }),
        holder({
          function: 'internal_audit',
          alsoServesEmployer: true,
          conflictsProtocol: 'Reports to the trustee chair only.',
        }),
      ],
    });
    expect(assessScheme(withProtocol, today).status).toBe('ok');
  });

  it('needs each serving trustee’s fitness and probity confirmed too (Art. 22)', () => {
    const facts = completeScheme();
    const [first, second] = facts.trustees as [TrusteeFacts, TrusteeFacts];
    const pending = completeScheme({
      trustees: [
        { ...first, fitnessAndProbity: 'pending' },
        { ...second, endedOn: '2021-01-01' },
      ],
    });
    const found = assessScheme(pending, today).obligations.filter(
      (entry) => entry.kind === 'fitness_and_probity',
    );
    // The ended trustee is not asked; the serving one is, by its id.
    expect(found).toEqual([
      expect.objectContaining({
        subjectId: first.id,
        status: 'incomplete',
        label: 'law',
        citation: GOVERNANCE_RULES.fitnessAndProbity.citation,
        reason: expect.stringContaining('not yet confirmed'),
      }),
    ]);
    const failed = completeScheme({
      trustees: [{ ...first, fitnessAndProbity: 'failed' }, second],
    });
    expect(
      assessScheme(failed, today).obligations.find((entry) => entry.kind === 'fitness_and_probity')
        ?.reason,
    ).toContain('did not meet');
  });

  it('asks for each serving key function holder’s appointment to be notified to the Authority', () => {
    const unnotified = completeScheme({
      keyFunctionHolders: [
        holder({ function: 'risk_management', notifiedOn: null }),
        holder({ function: 'internal_audit' }),
      ],
    });
    const { status, obligations } = assessScheme(unnotified, today);
    expect(status).toBe('incomplete');
    expect(obligations.filter((entry) => entry.kind === 'key_function_notification')).toEqual([
      expect.objectContaining({
        subjectId: 'kfh-risk_management-x',
        status: 'incomplete',
        label: 'law',
        reason: expect.stringContaining('not recorded as notified to the Pensions Authority'),
      }),
    ]);
  });

  it('is incomplete while a required policy is only drafted', () => {
    const facts = completeScheme();
    const drafted = completeScheme({
      policies: facts.policies.map((policy) =>
        policy.kind === 'remuneration'
          ? { ...policy, status: 'draft' as const, approvedOn: null, nextReviewDue: null }
          : policy,
      ),
    });
    expect(obligation(drafted, today, 'written_policy', 'policy-remuneration')).toBeUndefined();
    expect(
      assessScheme(drafted, today).obligations.find((entry) =>
        entry.reason.includes('remuneration policy is drafted'),
      ),
    ).toMatchObject({ status: 'incomplete', ...GOVERNANCE_RULES.remunerationPolicy });
  });

  it('asks for a policy to be adapted after a significant change as the law does, due 30 days after, overdue the day after that', () => {
    const changed = completeScheme({
      significantChanges: [{ policyId: 'policy-outsourcing', occurredOn: '2025-05-20' }],
    });
    const onTheDay = obligation(changed, '2025-05-20', 'written_policy', 'policy-outsourcing');
    expect(onTheDay).toMatchObject({
      dueOn: '2025-06-19',
      status: 'due_soon',
      ...GOVERNANCE_RULES.writtenPolicies,
    });
    expect(onTheDay?.reason).toBe(
      'A significant change in the area of the outsourcing policy was recorded on 20 May 2025: the law asks for the policy to be adapted and names no day; this service asks for its review by 19 Jun 2025, 30 days after the change',
    );
    expect(assessScheme(changed, '2025-05-21').status).toBe('due_soon');
    expect(assessScheme(changed, '2025-06-19').status).toBe('due_soon');
    expect(assessScheme(changed, '2025-06-20').status).toBe('overdue');
  });

  it('words the effect of a significant change as the law does, never as due at once or the next day', () => {
    expect(SIGNIFICANT_CHANGE_EFFECTS.riskProfile).toContain('without delay');
    expect(SIGNIFICANT_CHANGE_EFFECTS.riskProfile).toContain('Pensions Act 1990 s.64AL(3)');
    expect(SIGNIFICANT_CHANGE_EFFECTS.policy('remuneration policy')).toContain(
      'remuneration policy to be adapted',
    );
    const changed = completeScheme({
      significantChanges: [
        { policyId: 'policy-risk_management', occurredOn: '2025-05-20' },
        { policyId: null, occurredOn: '2025-05-20' },
      ],
    });
    const texts = [
      SIGNIFICANT_CHANGE_EFFECTS.riskProfile,
      SIGNIFICANT_CHANGE_EFFECTS.policy('risk management policy'),
      ...['2025-05-20', '2025-07-01'].flatMap((today) =>
        assessScheme(changed, today).obligations.map((entry) => entry.reason),
      ),
    ];
    for (const words of texts) {
      expect(words).not.toMatch(/at once|the next day|the day after|must be reviewed/i);
    }
  });

  it('follows the policy cycle across several reviews, late and early', () => {
    // Approved 10/01/2024 → due 10/01/2027. Judged on days across the next cycles.
    const scheme = completeScheme();
    expect(
      obligation(scheme, '2026-11-10', 'written_policy', 'policy-risk_management')?.status,
    ).toBe('ok');
    expect(
      obligation(scheme, '2026-11-20', 'written_policy', 'policy-risk_management')?.status,
    ).toBe('due_soon');
    expect(
      obligation(scheme, '2027-02-01', 'written_policy', 'policy-risk_management'),
    ).toMatchObject({ status: 'overdue', dueOn: '2027-01-10' });
    // Reviewed late on 20/05/2027: the new version is next due 10/01/2030.
    const reviewed = completeScheme({
      policies: scheme.policies.map((policy) =>
        policy.kind === 'risk_management'
          ? {
              ...policy,
              id: 'policy-rm-2',
              approvedOn: '2027-05-20',
              nextReviewDue: nextReviewDue('2027-05-20', '2027-01-10'),
            }
          : {
              ...policy,
              approvedOn: '2026-12-01',
              nextReviewDue: nextReviewDue('2026-12-01', '2027-01-10'),
            },
      ),
    });
    expect(obligation(reviewed, '2027-06-01', 'written_policy', 'policy-rm-2')).toMatchObject({
      status: 'ok',
      dueOn: '2030-01-10',
    });
    expect(obligation(reviewed, '2029-11-15', 'written_policy', 'policy-rm-2')?.status).toBe(
      'due_soon',
    );
  });

  it('needs an ORA at least every three years, and without delay after a risk-profile change', () => {
    const noOra = completeScheme({ oraReports: [] });
    expect(obligation(noOra, today, 'own_risk_assessment')).toMatchObject({
      status: 'incomplete',
      label: 'law',
      citation: 'Pensions Act 1990 s.64AL(3)',
    });
    const scheme = completeScheme();
    expect(obligation(scheme, '2027-03-02', 'own_risk_assessment')).toMatchObject({
      status: 'overdue',
      dueOn: '2027-03-01',
    });
    // A change on 02/04/2025: the ORA is shown as due 30 days later, 02/05/2025; overdue on
    // 01/06/2025.
    const changed = completeScheme({
      significantChanges: [{ policyId: null, occurredOn: '2025-04-02' }],
    });
    expect(obligation(changed, today, 'own_risk_assessment')).toMatchObject({
      status: 'overdue',
      dueOn: '2025-05-02',
      reason:
        "The scheme's risk profile changed significantly on 2 Apr 2025: the law asks for an own-risk assessment without delay; this service shows it as due by 2 May 2025, 30 days after the change",
    });
    // An ORA performed after the change answers it; performed late, the next counts from when it
    // was due.
    const answered = completeScheme({
      significantChanges: [{ policyId: null, occurredOn: '2025-04-02' }],
      oraReports: [
        ...scheme.oraReports,
        {
          id: 'ora-2',
          performedOn: '2025-05-15',
          nextDue: nextReviewDue('2025-05-15', dueAfterChange('2025-04-02')),
        },
      ],
    });
    expect(obligation(answered, today, 'own_risk_assessment')).toMatchObject({
      subjectId: 'ora-2',
      status: 'ok',
      dueOn: '2028-05-02',
    });
  });

  it('ranks overdue above incomplete above due soon', () => {
    const overdueAndIncomplete = completeScheme({
      trustees: [],
      oraReports: [{ id: 'old', performedOn: '2019-01-01', nextDue: '2022-01-01' }],
    });
    expect(assessScheme(overdueAndIncomplete, today).status).toBe('overdue');
  });

  it('applies none of the registers to a PRSA, a contract and not a trust', () => {
    const prsa = assessScheme({ ...completeScheme(), type: 'PRSA' }, today);
    expect(prsa).toEqual({
      status: 'ok',
      obligations: [expect.objectContaining({ kind: 'scope', ...GOVERNANCE_RULES.scope })],
    });
    expect(requiredPolicyKinds('PRSA')).toEqual([]);
  });
});
