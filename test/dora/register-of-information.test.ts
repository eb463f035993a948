import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import {
  REGISTER_TEMPLATE_CODES,
  REGISTER_TEMPLATES,
  type RegisterTemplate,
} from '../../src/contracts/dora-register.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { HOLD_MAIL, NAMED_OPERATOR } from '../helpers/config.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * The register of information (docs/decisions/0139-dora-ict-incidents.md): one CSV a template of
 * ITS (EU) 2024/2956 in one ZIP, each headed by its column codes, filled from the firm's schemes
 * within DORA, the platform's operator and vendors as configured, and the firm's other ICT
 * providers; nothing of another firm; refused while the platform is not named.
 */
const OPERATOR = NAMED_OPERATOR;
const MAIL_VENDOR = {
  DORA_MAIL_VENDOR_NAME: 'Mail Relay Europe SA',
  DORA_MAIL_VENDOR_LEI: '529900MAILRELAY00034',
  DORA_MAIL_VENDOR_COUNTRY: 'BE',
};

let t: TestApp;
/** The same database, the platform not named: the operator's LEI and the mail vendor's unset. */
let unnamed: TestApp;
let consultant: UserRow;
let admin: UserRow;
let employerAdmin: UserRow;
let superAdmin: UserRow;
let brokerId: string;
/** The scheme within DORA, and the one of 2 members that is not. */
let acmeId: string;
let tinyId: string;

const provider = {
  name: 'Harbour Payroll Services',
  identifier: '635400EXAMPLE0LEI012',
  identifierType: 'LEI',
  country: 'IE',
  serviceType: 'S19',
  contractReference: 'HPS-2025-014',
  startedOn: '2025-02-01',
  supportsCriticalFunction: true,
};
const otherProvider = {
  ...provider,
  name: 'Quayside Hosting',
  identifier: '635400OTHERFIRM00056',
  contractReference: 'QH-OTHER-7',
};

/** A scheme with this many members, active. */
async function schemeWith(firm: string, name: string, count: number) {
  const employerId = await createEmployer(t.database, firm);
  const schemeId = await createScheme(t.database, { id: employerId, brokerId: firm }, name);
  for (let index = 0; index < count; index += 1) {
    await createMember(t.database, { brokerId: firm, employerId, schemeId }, { email: null });
  }
  return { employerId, schemeId };
}

function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, string>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** RFC 4180 as the export writes it: CRLF-ended rows, quoted cells with doubled quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  return rows;
}

/** Each template's rows as records by column code. */
function recordsOf(files: Map<string, string>) {
  const out = {} as Record<RegisterTemplate, Array<Record<string, string>>>;
  for (const template of REGISTER_TEMPLATE_CODES) {
    const [header = [], ...rows] = parseCsv(files.get(`${template}.csv`) ?? '');
    out[template] = rows.map((cells) =>
      Object.fromEntries(header.map((column, index) => [column, cells[index] ?? ''])),
    );
  }
  return out;
}

beforeAll(async () => {
  t = await buildTestApp({ env: { ...HOLD_MAIL, ...OPERATOR, ...MAIL_VENDOR } });
  unnamed = await buildTestApp({
    database: t.database,
    env: {
      ...HOLD_MAIL,
      ...OPERATOR,
      DORA_OPERATOR_LEI: undefined,
      ...MAIL_VENDOR,
      DORA_MAIL_VENDOR_LEI: undefined,
    },
  });
  brokerId = await createBroker(t.database, 'Murphy & Byrne Brokers');
  const acme = await schemeWith(brokerId, 'Acme Staff Pension Scheme', 16);
  const { employerId } = acme;
  acmeId = acme.schemeId;
  tinyId = (await schemeWith(brokerId, 'Tiny Partners Scheme', 2)).schemeId;
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  employerAdmin = await createUser(t.database, { brokerId, employerId, role: 'EmployerAdmin' });
  superAdmin = await createUser(t.database, { role: 'SuperAdmin' });
  const created = await t.requestAs(consultant, 'POST', '/api/dora/ict-providers', provider);
  expect(created.statusCode, created.body).toBe(201);

  const otherFirm = await createBroker(t.database, 'Liffey Trustee Services');
  await schemeWith(otherFirm, 'Other Firm Staff Scheme', 16);
  const otherAdmin = await createUser(t.database, { brokerId: otherFirm, role: 'BrokerAdmin' });
  const other = await t.requestAs(otherAdmin, 'POST', '/api/dora/ict-providers', otherProvider);
  expect(other.statusCode, other.body).toBe(201);
}, 120_000);
afterAll(async () => {
  await unnamed?.close();
  await t?.close();
});

describe('the register of information', () => {
  let files: Map<string, string>;

  it('answers a ZIP of one CSV a template, each headed by the annex’s column codes', async () => {
    const response = await t.requestAs(consultant, 'GET', '/api/dora/register-of-information.zip');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="register-of-information-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    files = await unzip(response.rawPayload);
    expect([...files.keys()]).toEqual(REGISTER_TEMPLATE_CODES.map((code) => `${code}.csv`));
    for (const template of REGISTER_TEMPLATE_CODES) {
      const [header] = parseCsv(files.get(`${template}.csv`) ?? '');
      expect(header, template).toEqual([...REGISTER_TEMPLATES[template]]);
    }
    // The annex gives these three no "link" column; the ESAs' reporting taxonomy adds one.
    for (const template of ['B_02.03', 'B_03.01', 'B_03.03'] as const) {
      expect(parseCsv(files.get(`${template}.csv`) ?? '')[0], template).toEqual(['c0010', 'c0020']);
    }
  });

  it('fills the rows from the firm, its schemes within DORA, the platform and its providers', () => {
    const records = recordsOf(files);
    const platform = `platform-${brokerId}`;
    expect(records['B_01.01']).toEqual([
      expect.objectContaining({
        c0010: '',
        c0020: 'Murphy & Byrne Brokers',
        c0030: 'IE',
        c0050: 'Pensions Authority',
      }),
    ]);
    // The scheme of 16 members is within DORA; the one of 2 is not.
    expect(records['B_01.02'].map((row) => [row.c0020, row.c0040, row.c0090])).toEqual([
      [
        'Acme Staff Pension Scheme',
        'Institutions for occupational retirement provision',
        '9999-12-31',
      ],
    ]);
    expect(records['B_01.01'][0]?.c0040).toBe('Institutions for occupational retirement provision');
    expect(records['B_02.01'].map((row) => [row.c0010, row.c0020])).toEqual([
      [platform, 'Standalone arrangement'],
      ['HPS-2025-014', 'Standalone arrangement'],
    ]);
    // Only the platform is known to store the schemes' data.
    expect(records['B_02.02'].map((row) => row.c0140)).toEqual(['Yes', '']);
    const signing = parseCsv(files.get('B_03.01.csv') ?? '').slice(1);
    expect(signing).toEqual([
      [platform, ''],
      ['HPS-2025-014', ''],
    ]);
    expect(records['B_04.01'].map((row) => [row.c0020, row.c0030])).toEqual([
      ['', 'Not a branch'],
      ['', 'Not a branch'],
    ]);
    expect(records['B_02.02']).toEqual([
      expect.objectContaining({
        c0010: platform,
        // No scheme's LEI is recorded yet: one row an arrangement, the cell left empty.
        c0020: '',
        c0030: OPERATOR.DORA_OPERATOR_LEI,
        c0040: 'LEI',
        c0060: 'S19',
        c0080: '9999-12-31',
        c0130: 'IE',
      }),
      expect.objectContaining({
        c0010: 'HPS-2025-014',
        c0030: provider.identifier,
        c0070: '2025-02-01',
        c0080: '9999-12-31',
      }),
    ]);
    expect(records['B_03.02'].map((row) => [row.c0010, row.c0020, row.c0030])).toEqual([
      [platform, OPERATOR.DORA_OPERATOR_LEI, 'LEI'],
      ['HPS-2025-014', provider.identifier, 'LEI'],
    ]);
    expect(records['B_05.01'].map((row) => [row.c0010, row.c0050, row.c0080])).toEqual([
      [OPERATOR.DORA_OPERATOR_LEI, OPERATOR.DORA_OPERATOR_NAME, 'IE'],
      [MAIL_VENDOR.DORA_MAIL_VENDOR_LEI, MAIL_VENDOR.DORA_MAIL_VENDOR_NAME, 'BE'],
      [provider.identifier, provider.name, 'IE'],
    ]);
    for (const row of records['B_05.01']) {
      expect(row.c0070).toBe('Legal person, excluding individual acting in a business capacity');
    }
    // The platform at rank 1, its mail vendor (in use: SMTP_URL is set) a subcontractor at rank 2.
    expect(
      records['B_05.02'].map((row) => [row.c0010, row.c0030, row.c0050, row.c0060, row.c0020]),
    ).toEqual([
      [platform, OPERATOR.DORA_OPERATOR_LEI, '1', '', 'S19'],
      ['HPS-2025-014', provider.identifier, '1', '', 'S19'],
      [platform, MAIL_VENDOR.DORA_MAIL_VENDOR_LEI, '2', OPERATOR.DORA_OPERATOR_LEI, 'S19'],
    ]);
    expect(records['B_07.01'].map((row) => row.c0010)).toEqual([platform, 'HPS-2025-014']);
    for (const empty of ['B_01.03', 'B_02.03', 'B_03.03', 'B_06.01', 'B_99.01'] as const) {
      expect(records[empty], empty).toEqual([]);
    }
  });

  it('holds nothing of another firm', () => {
    const all = [...files.values()].join('\n');
    for (const foreign of [
      'Liffey Trustee Services',
      'Other Firm Staff Scheme',
      otherProvider.name,
      otherProvider.identifier,
      otherProvider.contractReference,
    ]) {
      expect(all).not.toContain(foreign);
    }
  });

  it('is the firm’s staff’s: a BrokerAdmin too; an employer’s people and SuperAdmin are refused', async () => {
    const url = '/api/dora/register-of-information.zip';
    expect((await t.requestAs(admin, 'GET', url)).statusCode).toBe(200);
    expect((await t.requestAs(employerAdmin, 'GET', url)).statusCode).toBe(403);
    expect((await t.requestAs(superAdmin, 'GET', url)).statusCode).toBe(403);
  });

  it('refuses with a 409 naming each setting missing while the platform is not named', async () => {
    const response = await unnamed.requestAs(
      consultant,
      'GET',
      '/api/dora/register-of-information.zip',
    );
    expect(response.statusCode, response.body).toBe(409);
    const message: string = response.json().error;
    expect(message).toContain('DORA_OPERATOR_LEI');
    expect(message).toContain('DORA_MAIL_VENDOR_LEI');
    expect(message).not.toContain('DORA_OPERATOR_NAME');
  });
});

describe('the LEIs of the firm and its schemes', () => {
  const FIRM_LEI = '635400MURPHYBYRNE012';
  const ACME_LEI = '635400ACMESTAFF00045';
  const TINY_LEI = '635400TINYPARTNER078';
  const entitiesUrl = '/api/dora/register-of-information/entities';

  it('are listed before the download, each null while none is given: the firm and its schemes within DORA', async () => {
    const answer = await t.requestAs(consultant, 'GET', entitiesUrl);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      firm: { id: brokerId, name: 'Murphy & Byrne Brokers', lei: null },
      schemes: [{ id: acmeId, name: 'Acme Staff Pension Scheme', lei: null }],
    });
    expect((await t.requestAs(employerAdmin, 'GET', entitiesUrl)).statusCode).toBe(403);
    expect((await t.requestAs(superAdmin, 'GET', entitiesUrl)).statusCode).toBe(403);
  });

  it('are written where the annex asks: B_01.01, B_01.02, and a row a scheme in B_02.02 and B_04.01', async () => {
    const firm = await t.requestAs(admin, 'PUT', `/api/brokers/${brokerId}/lei`, { lei: FIRM_LEI });
    expect(firm.statusCode, firm.body).toBe(200);
    for (const [id, lei] of [
      [acmeId, ACME_LEI],
      [tinyId, TINY_LEI],
    ] as const) {
      const scheme = await t.requestAs(consultant, 'PATCH', `/api/schemes/${id}`, { lei });
      expect(scheme.statusCode, scheme.body).toBe(200);
    }
    expect((await t.requestAs(consultant, 'GET', entitiesUrl)).json()).toEqual({
      firm: { id: brokerId, name: 'Murphy & Byrne Brokers', lei: FIRM_LEI },
      schemes: [{ id: acmeId, name: 'Acme Staff Pension Scheme', lei: ACME_LEI }],
    });

    const response = await t.requestAs(consultant, 'GET', '/api/dora/register-of-information.zip');
    expect(response.statusCode, response.body).toBe(200);
    const records = recordsOf(await unzip(response.rawPayload));
    const platform = `platform-${brokerId}`;
    expect(records['B_01.01'].map((row) => [row.c0010, row.c0020])).toEqual([
      [FIRM_LEI, 'Murphy & Byrne Brokers'],
    ]);
    // The scheme of 2 members is outside DORA: its LEI is written nowhere.
    expect(records['B_01.02'].map((row) => [row.c0010, row.c0020])).toEqual([
      [ACME_LEI, 'Acme Staff Pension Scheme'],
    ]);
    expect(records['B_02.02'].map((row) => [row.c0010, row.c0020, row.c0030])).toEqual([
      [platform, ACME_LEI, OPERATOR.DORA_OPERATOR_LEI],
      ['HPS-2025-014', ACME_LEI, provider.identifier],
    ]);
    expect(records['B_04.01'].map((row) => [row.c0010, row.c0020])).toEqual([
      [platform, ACME_LEI],
      ['HPS-2025-014', ACME_LEI],
    ]);
    const all = JSON.stringify(records);
    expect(all).not.toContain(TINY_LEI);
  });

  it('give a row to each scheme within DORA with its own LEI, and one empty row for those without', async () => {
    const third = await schemeWith(brokerId, 'Harbour Executive Scheme', 16);
    const response = await t.requestAs(consultant, 'GET', '/api/dora/register-of-information.zip');
    const records = recordsOf(await unzip(response.rawPayload));
    expect(records['B_01.02'].map((row) => [row.c0010, row.c0020])).toEqual([
      [ACME_LEI, 'Acme Staff Pension Scheme'],
      ['', 'Harbour Executive Scheme'],
    ]);
    expect(records['B_02.02'].map((row) => [row.c0010, row.c0020])).toEqual([
      [`platform-${brokerId}`, ACME_LEI],
      [`platform-${brokerId}`, ''],
      ['HPS-2025-014', ACME_LEI],
      ['HPS-2025-014', ''],
    ]);
    expect((await t.requestAs(admin, 'GET', entitiesUrl)).json().schemes).toEqual([
      { id: acmeId, name: 'Acme Staff Pension Scheme', lei: ACME_LEI },
      { id: third.schemeId, name: 'Harbour Executive Scheme', lei: null },
    ]);
  });

  it('of another firm are neither listed nor written', async () => {
    const answer = await t.requestAs(consultant, 'GET', entitiesUrl);
    expect(JSON.stringify(answer.json())).not.toContain('Liffey');
    expect(JSON.stringify(answer.json())).not.toContain('Other Firm Staff Scheme');
  });
});
