import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { schemeFixture } from '../helpers/fixtures.js';
import { csvFile, upload } from '../helpers/imports.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * An import's result says what to check against the payroll run: € totals per kind, the file's
 * own name and who uploaded it (docs/decisions/0048-contributions-as-a-payroll-grid.md).
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function scheme() {
  const { schemeId, members, hr } = await schemeFixture(t.database, {
    members: 2,
    users: { hr: 'EmployerAdmin' },
  });
  return { schemeId, people: members, hr };
}

describe('an import’s result, for reconciling against the payroll run', () => {
  it('gives € totals per kind, the file’s own name (never a folder) and the uploader by name', async () => {
    const { schemeId, people, hr } = await scheme();
    const [a, b] = people as [(typeof people)[0], (typeof people)[0]];
    const file = csvFile(
      ['PPS No', 'Pay Period', 'Employee', 'Employer', 'AVC'],
      [
        { 'PPS No': a.ppsNumber, 'Pay Period': '10/2026', Employee: '250.00', Employer: '375.50' },
        { 'PPS No': b.ppsNumber, 'Pay Period': '10/2026', Employee: '200', AVC: '20.25' },
      ],
    );
    const name = encodeURIComponent('C:\\Payroll\\2026\\October run.csv');
    const response = await upload(
      t,
      hr,
      `/api/schemes/${schemeId}/contributions/import?fileName=${name}`,
      file,
    );
    expect(response.statusCode, response.body).toBe(201);
    const expected = {
      fileName: 'October run.csv',
      uploadedBy: hr.name,
      totals: { employeeCents: 45_000, employerCents: 37_550, avcCents: 2_025, totalCents: 84_575 },
    };
    expect(response.json()).toMatchObject(expected);
    const listed = await t.requestAs(hr, 'GET', `/api/schemes/${schemeId}/imports`);
    expect(listed.json().items[0]).toMatchObject(expected);
    const read = await t.requestAs(hr, 'GET', `/api/imports/${response.json().id}`);
    expect(read.json()).toMatchObject(expected);
  });

  it('has no totals for a members file, and refuses a file name with control characters', async () => {
    const { schemeId, hr } = await scheme();
    const refused = await upload(
      t,
      hr,
      `/api/schemes/${schemeId}/contributions/import?fileName=${encodeURIComponent('a\u0000b.csv')}`,
      csvFile(['PPS No', 'Pay Period', 'Employee'], []),
    );
    expect(refused.statusCode).toBe(400);
    const members = await upload(
      t,
      hr,
      `/api/schemes/${schemeId}/members/import`,
      csvFile(
        ['First Name', 'Last Name', 'Date of Birth', 'Date Joined', 'Salary', 'PPSN'],
        [
          {
            'First Name': 'Nóra',
            'Last Name': 'Burke',
            'Date of Birth': '14/02/1981',
            'Date Joined': '01/03/2016',
            Salary: '39000',
            PPSN: newPpsNumber(),
          },
        ],
      ),
    );
    expect(members.json()).toMatchObject({ fileName: null, totals: null });
  });
});
