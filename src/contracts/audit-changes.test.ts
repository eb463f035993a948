import { describe, expect, it } from 'vitest';
import {
  changeLine,
  fieldInWords,
  NOT_KEPT,
  stateChanges,
  technicalDetails,
  valueInWords,
} from './audit-changes.js';
import { forwardedForHeader, forwardedForNote } from './audit-text.js';

const lines = (previous: unknown, next: unknown, recordType?: string) =>
  stateChanges(previous, next, recordType).map(changeLine);

describe('what an audit record says changed', () => {
  it('reads a change as “field: before → after”, each field that differs and no other', () => {
    expect(
      lines(
        { id: 'p1', schemeId: 's1', status: 'draft', version: '1.0', nextReviewDue: null },
        {
          id: 'p1',
          schemeId: 's1',
          status: 'approved',
          version: '1.0',
          nextReviewDue: '2027-01-15',
          changedFields: ['status'],
        },
      ),
    ).toEqual(['Status: draft → approved', 'Next review due: none → 15 Jan 2027']);
    // Instants in the same minute read alike: no line for them.
    expect(
      lines({ updatedAt: '2026-11-23T10:00:01.000Z' }, { updatedAt: '2026-11-23T10:00:09.000Z' }),
    ).toEqual([]);
  });

  it('reads a record made as its fields, and one deleted as what it had, the record’s id left out', () => {
    expect(lines(null, { id: 'e1', name: 'Acme Ltd', memberFacing: false })).toEqual([
      'Name: Acme Ltd',
      'Member facing: No',
    ]);
    expect(lines({ id: 'e1', name: 'Acme Ltd' }, null)).toEqual(['Name: was Acme Ltd']);
    expect(lines(null, null)).toEqual([]);
  });

  it('says a field changed where the record keeps no value of it: personal data', () => {
    expect(
      lines(
        { id: 'm1', schemeId: 's1', status: 'active' },
        { id: 'm1', schemeId: 's1', status: 'active', changedFields: ['firstName', 'salaryCents'] },
      ),
    ).toEqual([`First name: ${NOT_KEPT}`, `Salary: ${NOT_KEPT}`]);
  });

  it('flattens nested values under their parent’s name and counts lists of records', () => {
    expect(
      lines(null, {
        asOf: '2026-03-31',
        totals: { below_standard: 2, likely_enrolled: 0 },
        documents: [{ id: 'd1', version: 2 }],
        excluded: [],
        fields: ['email', 'address'],
      }),
    ).toEqual([
      'As of: 31 Mar 2026',
      'Totals › Below standard: 2',
      'Totals › Likely enrolled: 0',
      'Documents: 1 entry',
      'Excluded: none',
      'Fields: email, address',
    ]);
  });

  it('shows money, rates, dates, instants, yes and no, and codes as people read them', () => {
    expect(valueInWords('salaryCents', 5_500_000)).toBe('€55,000.00');
    expect(valueInWords('employerBasisPoints', 150)).toBe('1.5%');
    expect(valueInWords('rowsRead', 12_000)).toBe('12,000');
    expect(valueInWords('approvedOn', '2025-01-15')).toBe('15 Jan 2025');
    // 10:00 UTC in November is 10:00 in Ireland; in July it is 11:00 (IST).
    expect(valueInWords('finishedAt', '2026-11-23T10:00:00.000Z')).toBe('23 Nov 2026, 10:00');
    expect(valueInWords('finishedAt', '2026-07-01T10:00:00.000Z')).toBe('1 Jul 2026, 11:00');
    expect(valueInWords('alsoServesEmployer', true)).toBe('Yes');
    expect(valueInWords('kind', 'risk_management')).toBe('risk management');
    expect(valueInWords('title', 'Risk appetite statement')).toBe('Risk appetite statement');
    expect(fieldInWords('fileSha256')).toBe('File SHA-256');
    expect(fieldInWords('employerId')).toBe('Employer id');
    expect(fieldInWords('croNumber')).toBe('CRO number');
    expect(fieldInWords('srNumber')).toBe('SR number');
    expect(fieldInWords('lei')).toBe('LEI');
    expect(fieldInWords('ppsNumber')).toBe('PPS number');
    expect(fieldInWords('employerContributionBasisPoints')).toBe('Employer contribution rate');
    expect(fieldInWords('scrolled')).toBe('Scrolled');
  });
});

describe('a contribution’s record in words', () => {
  it('reads its kind, pay period and days in words, and keeps the ids an auditor looks up', () => {
    expect(
      lines(
        null,
        {
          id: 'c1',
          memberId: 'm1',
          kind: 'employer',
          period: '2026-10',
          amountCents: 12_345,
          paidOn: '2026-11-03',
          recordedAt: '2026-11-03T09:30:00.000Z',
          late: false,
        },
        'contribution',
      ),
    ).toEqual([
      'Member id: m1',
      'Kind: Employer',
      'Period: Oct 2026',
      'Amount: €123.45',
      'Paid on: 3 Nov 2026',
      'Recorded at: 3 Nov 2026, 09:30',
      'Late: No',
    ]);
    expect(valueInWords('kind', 'avc', 'contribution')).toBe('AVC');
    expect(valueInWords('fromPeriod', '2026-01')).toBe('Jan 2026');
    // A month in a field not named for a period, and a period that is none, stay as they are.
    expect(valueInWords('version', '2026-10')).toBe('2026-10');
    expect(valueInWords('period', '2026-13')).toBe('2026-13');
    expect(lines({ period: '2026-09' }, { period: '2026-10' })).toEqual([
      'Period: Sep 2026 → Oct 2026',
    ]);
  });
});

describe('a record’s codes in the words of the pages that keep it', () => {
  it('reads a payment received by its month in words, keeping the employer’s id', () => {
    expect(
      lines(
        null,
        {
          id: 'r1',
          employerId: 'v6b8employer',
          month: '2026-10',
          receivedOn: '2026-11-03',
          amountCents: 250_000,
          referenceGiven: true,
        },
        'remittance_receipt',
      ),
    ).toEqual([
      'Employer id: v6b8employer',
      'Month: Oct 2026',
      'Received on: 3 Nov 2026',
      'Amount: €2,500.00',
      'Reference given: Yes',
    ]);
  });

  it('reads a document uploaded by its type, format, size and scan in words, keeping its hash and ids', () => {
    const sha256 = 'a'.repeat(64);
    expect(
      lines(
        null,
        {
          id: 'd1',
          schemeId: 's1',
          documentType: 'trust_deed',
          version: 1,
          contentType: 'application/pdf',
          size: 45,
          sha256,
          memberFacing: false,
          memberId: null,
          scanStatus: 'unscanned',
        },
        'document',
      ),
    ).toEqual([
      'Scheme id: s1',
      'Document type: Trust deed',
      'Version: 1',
      'Content type: PDF',
      'Size: 45 bytes',
      `SHA-256: ${sha256}`,
      'Member facing: No',
      'Member id: none',
      'Scan status: Not scanned: this service runs without a virus scanner',
    ]);
    expect(valueInWords('size', 2 * 1024 * 1024)).toBe('2 MB');
    expect(valueInWords('scanStatus', 'quarantined')).toBe('Quarantined — not downloadable');
    // A format the service no longer accepts is still shown as it was recorded.
    expect(valueInWords('contentType', 'text/plain')).toBe('text/plain');
    expect(lines({ scanStatus: 'pending' }, { scanStatus: 'clean' }, 'document')).toEqual([
      'Scan status: Scanning… → Clean',
    ]);
  });

  it('reads a trustee appointed by its kind and its fitness and probity in words', () => {
    expect(
      lines(
        null,
        {
          id: 't1',
          schemeId: 's1',
          kind: 'individual',
          directorCount: null,
          appointedOn: '2026-01-15',
          endedOn: null,
          fitnessAndProbity: 'pending',
          chair: false,
        },
        'trustee',
      ),
    ).toEqual([
      'Scheme id: s1',
      'Kind: Individual',
      'Director count: none',
      'Appointed on: 15 Jan 2026',
      'Ended on: none',
      'Fitness and probity: Pending',
      'Chair: No',
    ]);
    expect(lines({ fitnessAndProbity: 'pending' }, { fitnessAndProbity: 'failed' })).toEqual([
      'Fitness and probity: Pending → Not met',
    ]);
  });

  it('reads a `kind` in the list of the record it is in', () => {
    expect(valueInWords('kind', 'corporate', 'trustee')).toBe('Corporate trustee');
    expect(valueInWords('kind', 'employer', 'contribution')).toBe('Employer');
    expect(valueInWords('kind', 'risk_management', 'written_policy')).toBe(
      'Risk management policy',
    );
    expect(valueInWords('kind', 'annual_report', 'filing')).toBe('Annual report');
    expect(valueInWords('kind', 'ora_outline', 'ai_draft')).toBe('Own-risk assessment outline');
    expect(valueInWords('policyKind', 'outsourcing')).toBe('Outsourcing policy');
    // A code of another record's list is not read as this one's.
    expect(valueInWords('kind', 'employer', 'trustee')).toBe('employer');
  });
});

describe('the X-Forwarded-For of a record', () => {
  it('is shown only when it says something the client address does not', () => {
    expect(forwardedForNote({ ipAddress: 'unknown', clientAddress: '192.0.2.10' })).toBeNull();
    expect(forwardedForNote({ ipAddress: '192.0.2.10', clientAddress: '192.0.2.10' })).toBeNull();
    expect(forwardedForNote({ ipAddress: '203.0.113.7', clientAddress: '192.0.2.10' })).toBe(
      'Forwarded for: 203.0.113.7',
    );
    expect(forwardedForNote({ ipAddress: '203.0.113.7', clientAddress: null })).toBe(
      'Forwarded for: 203.0.113.7',
    );
    // The service itself sent no header, whatever an older record kept as its client address.
    expect(forwardedForNote({ ipAddress: 'local', clientAddress: null })).toBeNull();
    expect(forwardedForHeader('local')).toBeNull();
    expect(forwardedForHeader('unknown')).toBeNull();
    expect(forwardedForHeader(' 203.0.113.7 ')).toBe('203.0.113.7');
  });
});

describe('a record’s technical details', () => {
  it('sets the ids, the code and the browser apart from the words, each under a label in words', () => {
    const changes = stateChanges(null, { schemeId: 's1', oraReports: 1 }, 'scheme');
    expect(changes.filter((change) => !change.technical).map(changeLine)).toEqual([
      'Own-risk assessment reports: 1',
    ]);
    expect(changes.filter((change) => change.technical).map(changeLine)).toEqual(['Scheme id: s1']);
    expect(
      technicalDetails({
        id: 'a1',
        action: 'scheme.evidence_pack_generated',
        actorId: 'u1',
        actorTenantId: 'b1',
        entityId: 's1',
        tenantId: 'b1',
        userAgent: 'Mozilla/5.0',
      }).map(({ label, value }) => `${label}: ${value}`),
    ).toEqual([
      'Action code: scheme.evidence_pack_generated',
      'Person’s id: u1',
      'Record id: s1',
      'Audit record id: a1',
      'Firm id: b1',
      'Person’s firm id: b1',
      'Browser: Mozilla/5.0',
    ]);
  });
});
