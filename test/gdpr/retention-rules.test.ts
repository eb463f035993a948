import { describe, expect, it } from 'vitest';
import {
  erasureScopeOf,
  keptInWords,
  paidOutOn,
  type RetentionFacts,
  retentionOf,
} from '../../src/contracts/retention-rules.js';

/**
 * The retention schedule worked by hand (docs/decisions/0149-retention-and-erasure.md): which
 * class of a member's record is kept, until when, and on whose authority.
 */
const facts = (overrides: Partial<RetentionFacts>): RetentionFacts => ({
  status: 'active',
  schemeType: 'DC',
  statusOn: null,
  payouts: [],
  lastTransactionOn: '2026-01-15',
  ...overrides,
});

const byClass = (retention: ReturnType<typeof retentionOf>) =>
  Object.fromEntries(retention.classes.map((entry) => [entry.recordClass, entry]));

describe('the retention schedule', () => {
  it('keeps every class of an active member while they are in the scheme, with no end day', () => {
    const retention = retentionOf(facts({}), '2026-03-01');
    expect(retention.paidOutOn).toBeNull();
    expect(retention.erasableInFullOn).toBeNull();
    for (const entry of retention.classes) {
      expect(entry).toMatchObject({ keep: 'while_payable', keepUntil: null, erasableNow: false });
    }
    expect(byClass(retention).contact_details?.source).toEqual({
      label: 'law',
      citation: 'S.I. No. 128 of 2021 reg. 31',
    });
    expect(erasureScopeOf(retention)).toBe('none');
    expect(keptInWords(retention)).toContain(
      'Contact details: Kept while the member is in the scheme',
    );
  });

  it('keeps a deferred member as an active one: a statement is still due every year', () => {
    const retention = retentionOf(
      facts({ status: 'deferred', statusOn: '2024-05-31' }),
      '2026-03-01',
    );
    expect(erasureScopeOf(retention)).toBe('none');
  });

  it('a refund paid on 10 March 2019: contact details now, identity until 10 March 2025, tax records six years from the last transaction', () => {
    const retention = retentionOf(
      facts({
        status: 'refunded',
        statusOn: '2019-02-28',
        payouts: [{ status: 'paid', paidOn: '2019-03-10' }],
        lastTransactionOn: '2019-03-12',
      }),
      '2024-06-01',
    );
    expect(retention.paidOutOn).toBe('2019-03-10');
    const classes = byClass(retention);
    expect(classes.contact_details).toMatchObject({ keep: 'on_request', erasableNow: true });
    expect(classes.identity_and_benefits).toMatchObject({
      keep: 'until',
      keepUntil: '2025-03-10',
      erasableNow: false,
      reason:
        'Kept until 10 Mar 2025: 6 years after the last payment out, within which a complaint can reach the Ombudsman',
      source: { label: 'law', citation: 'Financial Services and Pensions Ombudsman Act 2017 s.51' },
    });
    expect(classes.financial_records).toMatchObject({
      keepUntil: '2025-03-12',
      source: { label: 'law', citation: 'Taxes Consolidation Act 1997 s.886(4)' },
    });
    expect(retention.erasableInFullOn).toBe('2025-03-13');
    expect(erasureScopeOf(retention)).toBe('contact_details');
  });

  it('is erasable in full only on the day after the last class ends', () => {
    const refunded = facts({
      status: 'refunded',
      statusOn: '2019-02-28',
      payouts: [{ status: 'paid', paidOn: '2019-03-10' }],
      lastTransactionOn: '2019-03-12',
    });
    expect(erasureScopeOf(retentionOf(refunded, '2025-03-12'))).toBe('contact_details');
    expect(erasureScopeOf(retentionOf(refunded, '2025-03-13'))).toBe('member');
  });

  it('a payout still pending keeps everything: the benefit is not yet paid', () => {
    const retention = retentionOf(
      facts({
        status: 'transferred_out',
        statusOn: '2018-01-31',
        payouts: [{ status: 'pending', paidOn: null }],
      }),
      '2026-03-01',
    );
    expect(retention.paidOutOn).toBeNull();
    expect(erasureScopeOf(retention)).toBe('none');
    expect(keptInWords(retention)).toContain('Kept while a benefit is still to be paid');
  });

  it("a DB pensioner, and a DB member's death, keep everything: pensions are paid for life and to survivors", () => {
    for (const status of ['retired', 'deceased'] as const) {
      const retention = retentionOf(
        facts({ status, schemeType: 'DB', statusOn: '2001-06-30' }),
        '2026-03-01',
      );
      expect(retention.paidOutOn).toBeNull();
      expect(erasureScopeOf(retention)).toBe('none');
    }
  });

  it('a DC death benefit paid counts from its payment; a transfer with nothing paid through the service from its day', () => {
    expect(
      paidOutOn(
        facts({
          status: 'deceased',
          statusOn: '2020-04-02',
          payouts: [
            { status: 'paid', paidOn: '2020-05-01' },
            { status: 'paid', paidOn: '2020-04-20' },
          ],
        }),
      ),
    ).toBe('2020-05-01');
    expect(
      paidOutOn(facts({ status: 'transferred_out', schemeType: 'DB', statusOn: '2020-04-02' })),
    ).toBe('2020-04-02');
  });

  it('counts six years from 29 February to 28 February', () => {
    const retention = retentionOf(
      facts({
        status: 'refunded',
        statusOn: '2020-02-29',
        payouts: [{ status: 'paid', paidOn: '2020-02-29' }],
        lastTransactionOn: '2020-02-29',
      }),
      '2026-03-01',
    );
    expect(byClass(retention).identity_and_benefits?.keepUntil).toBe('2026-02-28');
    expect(erasureScopeOf(retention)).toBe('member');
  });
});
