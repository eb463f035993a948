import { createHash, randomBytes } from 'node:crypto';
import { readdir, readlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { POLICY_STATUS_NAMES } from '../../src/contracts/governance.js';
import {
  FITNESS_NAMES,
  GOVERNANCE_RULES,
  OBLIGATION_NAMES,
  OBLIGATION_STATUS_LABELS,
  type ObligationKind,
  type ObligationStatus,
  ORA_TRIGGER_NAMES,
  policySource,
  TRUSTEE_KIND_NAMES,
} from '../../src/contracts/governance-rules.js';
import { type RuleSource, sourceInWords } from '../../src/contracts/rule-sources.js';
import { packContents } from '../../src/server/modules/governance/evidence-pack.pdf.js';
import { packFilename } from '../../src/server/modules/governance/evidence-pack.service.js';
import { auditLog, documents, schemes } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { verifyTestChains } from '../helpers/audit.js';
import { ownerOf } from '../helpers/database.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createKeyFunctionHolder,
  createMember,
  createOraReport,
  createPolicy,
  createScheme,
  createTrustee,
  createUser,
  type MemberRow,
  type UserRow,
} from '../helpers/factories.js';
import { flowing, readPdf } from '../helpers/pdf-text.js';

/**
 * The evidence pack (docs/decisions/0065-evidence-pack.md): what the ZIP holds,
 * that every hash in its manifest is the hash of its bytes, that the audit chain head it names is
 * the one audit:verify reads, that its summary is a tagged PDF saying what the registers and the
 * rule module say, and that nothing in it is an e-mail address or a PPS number.
 */
const clock = new Date('2026-03-02T10:00:00Z');
let t: TestApp;
let staff: UserRow;
let employerAdmin: UserRow;
let employerUser: UserRow;
let memberUser: UserRow;
let otherTenantAdmin: UserRow;
let member: MemberRow;
let place: { brokerId: string; employerId: string; schemeId: string };
const HOLDER_EMAIL = 'orla.risk-holder@example.ie';
/** A trustee's contact details: personal data, never a governance fact the pack carries. */
const TRUSTEE_EMAIL = 'aoife.trustee@example.ie';
const TRUSTEE_PHONE = '+353 87 765 4321';
const uploadedIds: Record<string, { id: string; content: Buffer }> = {};

interface Pack {
  entries: Map<string, Buffer>;
  manifest: {
    format: string;
    schemeId: string;
    tenantId: string;
    generatedAt: string;
    generatedBy: { role: string };
    auditChain: { chain: string; position: number; recordId: string; hash: string };
    files: Array<{ path: string; size: number; sha256: string; documentId?: string }>;
    excluded: Array<{ documentId: string; documentType: string; reason: string }>;
  };
}

function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function upload(filename: string, content: Buffer, fields: Record<string, string>) {
  const form = documentForm(filename, content, fields);
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/schemes/${place.schemeId}/documents`,
    headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(staff)}` },
    payload: form.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; version: number };
}

async function packAs(user: UserRow, schemeId = place.schemeId) {
  return t.requestAs(user, 'GET', `/api/schemes/${schemeId}/evidence-pack`);
}

let pack: Pack;
let packBytes: Buffer;

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  place = { brokerId, employerId, schemeId };
  await ownerOf(t.database)
    .update(schemes)
    .set({ srNumber: 'SR123456' })
    .where(eq(schemes.id, schemeId));
  staff = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  employerAdmin = await createUser(t.database, { brokerId, employerId, role: 'EmployerAdmin' });
  employerUser = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  member = await createMember(t.database, place, { email: 'aoife.member@example.ie' });
  memberUser = await createUser(t.database, {
    brokerId,
    employerId,
    role: 'Member',
    memberId: member.id,
  });
  const otherBroker = await createBroker(t.database, 'Other Brokers');
  otherTenantAdmin = await createUser(t.database, { brokerId: otherBroker, role: 'BrokerAdmin' });

  await createTrustee(t.database, place, {
    name: 'Aoife Trustee',
    appointedOn: '2020-01-01',
    email: TRUSTEE_EMAIL,
    phone: TRUSTEE_PHONE,
    chair: true,
  });
  await createTrustee(t.database, place, {
    name: 'Trustco Limited',
    kind: 'corporate',
    directorCount: 2,
    appointedOn: '2021-06-01',
  });
  await createKeyFunctionHolder(t.database, place, {
    function: 'risk_management',
    holderName: 'Orla Risk',
    holderEmail: HOLDER_EMAIL,
  });
  await createPolicy(t.database, place, {
    kind: 'risk_management',
    title: 'Risk appetite statement',
    version: '2.1',
    status: 'approved',
    approvedOn: '2025-01-15',
    approvalReference: 'Board meeting 15 January 2025, minute 3.1',
  });
  await createPolicy(t.database, place, {
    kind: 'remuneration',
    title: 'Trustee pay policy',
    version: '0.3',
  });
  await createOraReport(t.database, place, { performedOn: '2025-02-01', summary: 'Free text' });

  // Two versions of one name: only the second belongs in the pack.
  await upload('Trust deed.pdf', SAMPLES.pdf, { documentType: 'trust_deed' });
  const deed = Buffer.concat([SAMPLES.pdf, Buffer.from('% amended 2025\n')]);
  uploadedIds.deed = {
    ...(await upload('Trust deed.pdf', deed, { documentType: 'trust_deed' })),
    content: deed,
  };
  uploadedIds.policy = {
    ...(await upload('Risk policy.docx', SAMPLES.docx, { documentType: 'written_policy' })),
    content: SAMPLES.docx,
  };
  uploadedIds.quarantined = {
    ...(await upload('Suspicious.pdf', SAMPLES.pdf, { documentType: 'other' })),
    content: SAMPLES.pdf,
  };
  await ownerOf(t.database)
    .update(documents)
    .set({ scanStatus: 'quarantined' })
    .where(eq(documents.id, uploadedIds.quarantined.id));
  uploadedIds.statement = {
    ...(await upload('Statement Aoife Murphy.pdf', SAMPLES.pdf, {
      documentType: 'benefit_statement',
      memberId: member.id,
    })),
    content: SAMPLES.pdf,
  };
  uploadedIds.aboutMember = {
    ...(await upload('Transfer letter Aoife Murphy.pdf', SAMPLES.pdf, {
      documentType: 'other',
      memberId: member.id,
    })),
    content: SAMPLES.pdf,
  };

  const response = await packAs(staff);
  expect(response.statusCode, response.body).toBe(200);
  packBytes = response.rawPayload;
  const entries = await unzip(packBytes);
  pack = {
    entries,
    manifest: JSON.parse((entries.get('manifest.json') ?? Buffer.from('{}')).toString('utf8')),
  };
});
afterAll(() => t.close());

describe('the evidence pack archive', () => {
  it('is an attachment ZIP named for the scheme and day, private and never sniffed', async () => {
    const response = await packAs(staff);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="evidence-pack-acme-staff-pension-scheme-2026-03-02.zip"',
    );
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('holds the summary, the current version of each servable document and the manifest', () => {
    expect([...pack.entries.keys()].sort()).toEqual([
      'documents/Trust deed/Trust deed.pdf',
      'documents/Written policy/Risk policy.docx',
      'manifest.json',
      'summary.pdf',
    ]);
    expect(pack.entries.get('documents/Trust deed/Trust deed.pdf')).toEqual(
      uploadedIds.deed?.content,
    );
    expect(pack.entries.get('documents/Written policy/Risk policy.docx')).toEqual(SAMPLES.docx);
  });

  it('gives in its manifest the size and SHA-256 of every other entry, which match the bytes', () => {
    const listed = pack.manifest.files.map((file) => file.path).sort();
    expect(listed).toEqual(
      [...pack.entries.keys()].filter((name) => name !== 'manifest.json').sort(),
    );
    for (const file of pack.manifest.files) {
      const bytes = pack.entries.get(file.path) as Buffer;
      expect(file.size, file.path).toBe(bytes.length);
      expect(file.sha256, file.path).toBe(sha256(bytes));
    }
    const deed = pack.manifest.files.find((file) => file.documentId === uploadedIds.deed?.id);
    expect(deed?.sha256).toBe(sha256(uploadedIds.deed?.content as Buffer));
    expect(pack.manifest).toMatchObject({
      schemeId: place.schemeId,
      tenantId: place.brokerId,
      generatedAt: clock.toISOString(),
      generatedBy: { role: 'BrokerUser' },
    });
  });

  it('lists quarantined documents and every document about one member as excluded, with the reason and no filename', () => {
    expect(pack.manifest.excluded).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          documentId: uploadedIds.quarantined?.id,
          reason: 'quarantined',
        }),
        expect.objectContaining({
          documentId: uploadedIds.statement?.id,
          reason: 'member_personal_data',
        }),
        expect.objectContaining({
          documentId: uploadedIds.aboutMember?.id,
          reason: 'member_personal_data',
        }),
      ]),
    );
    expect(pack.manifest.excluded).toHaveLength(3);
    const text = JSON.stringify(pack.manifest.excluded);
    expect(text).not.toMatch(/Suspicious|Statement Aoife|Transfer letter/);
  });

  it('names as the audit chain head the record audit verification reads last, after generation', async () => {
    const report = await verifyTestChains(t.database, { tenantId: place.brokerId });
    expect(report.broken).toEqual([]);
    // The later requests of this file appended more; the head the pack named is that record's.
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.id, pack.manifest.auditChain.recordId));
    expect(record).toMatchObject({
      action: 'scheme.evidence_pack_generated',
      entityId: place.schemeId,
      chainKey: place.brokerId,
      chainIndex: pack.manifest.auditChain.position,
      hash: pack.manifest.auditChain.hash,
    });
    // A pack generated with nothing after it: its head is exactly what verification ends on.
    const fresh = await packAs(staff);
    const manifest = JSON.parse(
      (await unzip(fresh.rawPayload)).get('manifest.json')?.toString('utf8') ?? '{}',
    ) as Pack['manifest'];
    const after = await verifyTestChains(t.database, { tenantId: place.brokerId });
    expect(after.broken).toEqual([]);
    expect(after.heads[place.brokerId]).toEqual({
      position: manifest.auditChain.position,
      recordId: manifest.auditChain.recordId,
      hash: manifest.auditChain.hash,
    });
  });

  it('audits the generation with ids and counts only, before the archive is sent', async () => {
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.id, pack.manifest.auditChain.recordId));
    expect(record?.newState).toMatchObject({
      schemeId: place.schemeId,
      documents: expect.arrayContaining([{ id: uploadedIds.deed?.id, version: 2 }]),
      trustees: 2,
      keyFunctionHolders: 1,
      policies: 2,
      oraReports: 1,
    });
    expect(JSON.stringify(record)).not.toMatch(/Trust deed|Risk appetite|Orla|@example/);
  });
});

describe('the pack’s file name', () => {
  it('is the scheme’s name in safe characters and the day, whatever the name holds', () => {
    expect(packFilename('Ó Súilleabháin & Sons Staff Pension', '2026-03-02')).toBe(
      'evidence-pack-o-suilleabhain-sons-staff-pension-2026-03-02.zip',
    );
    expect(packFilename('../"Scheme"; rm -rf /', '2026-03-02')).toBe(
      'evidence-pack-scheme-rm-rf-2026-03-02.zip',
    );
    expect(packFilename('«»', '2026-03-02')).toBe('evidence-pack-scheme-2026-03-02.zip');
    const long = packFilename('A'.repeat(300), '2026-03-02');
    expect(long).toMatch(/^evidence-pack-a{60}-2026-03-02\.zip$/);
  });
});

describe('what the summary says the pack holds', () => {
  it('says plainly that a pack holds none of the scheme’s documents, and counts them in words otherwise', () => {
    expect(packContents(0)).toMatch(
      /^This pack holds this summary and manifest\.json, .*\. None of the scheme’s documents is in it\.$/,
    );
    expect(packContents(0)).not.toContain('no documents');
    expect(packContents(1)).toMatch(
      /^This pack holds this summary, one document of the scheme and manifest\.json, /,
    );
  });
});

describe('the summary PDF', () => {
  it('is a tagged PDF with a language, a displayed title and embedded fonts', () => {
    const pdf = pack.entries.get('summary.pdf') as Buffer;
    const raw = pdf.toString('latin1');
    expect(raw.startsWith('%PDF-1.7')).toBe(true);
    expect(raw).toContain('/StructTreeRoot');
    // The catalog's MarkInfo (pdfkit writes it as an object of its own) says the PDF is marked.
    const markInfo = /\/MarkInfo (\d+) 0 R/.exec(raw)?.[1];
    expect(readPdf(pdf).objects.get(Number(markInfo))).toMatch(/<<\s*\/Marked true\s*>>/);
    expect(raw).toMatch(/\/Lang \(en-IE\)/);
    expect(raw).toContain('/DisplayDocTitle true');
    expect(raw).toContain('/FontFile2');
    for (const tag of ['/S /H1', '/S /H2', '/S /P', '/S /Table', '/S /TH', '/S /TD', '/S /L']) {
      expect(raw, tag).toContain(tag);
    }
  });

  it('states the scheme, registers, policies with versions and every obligation with its label and citation', async () => {
    const text = flowing(readPdf(pack.entries.get('summary.pdf') as Buffer).text);
    for (const phrase of [
      'Acme Staff Pension Scheme',
      'defined contribution scheme',
      'Aoife Trustee',
      'Trustco Limited',
      'Orla Risk',
      'Risk appetite statement',
      'Trustee pay policy',
      '2.1',
      '15 Jan 2025',
      '1 Feb 2025',
      sourceInWords(GOVERNANCE_RULES.trustees),
      sourceInWords(GOVERNANCE_RULES.ownRiskAssessment),
      sourceInWords(policySource('risk_management')),
      'documents/Trust deed/Trust deed.pdf',
    ]) {
      expect(text, phrase).toContain(phrase);
    }
    // Every obligation the compliance view reports, with its reason, is in the summary.
    const compliance = (
      await t.requestAs(staff, 'GET', `/api/schemes/${place.schemeId}/compliance`)
    ).json() as {
      obligations: Array<{ reason: string } & RuleSource>;
    };
    expect(compliance.obligations.length).toBeGreaterThan(0);
    for (const obligation of compliance.obligations) {
      expect(text).toContain(flowing(obligation.reason));
      // The label in words before the citation: "Law: Pensions Act 1990 s.64AC(1)–(2)".
      expect(text).toContain(flowing(sourceInWords(obligation)));
    }
  });

  it('reads as a document for a regulator: the scheme by name and employer, who prepared it and when, counts in words', () => {
    const pdf = readPdf(pack.entries.get('summary.pdf') as Buffer);
    const text = flowing(pdf.text);
    for (const phrase of [
      'Governance evidence pack: Acme Staff Pension Scheme',
      'Scheme: Acme Staff Pension Scheme, a defined contribution scheme (DC)',
      'Employer: Acme Ltd',
      'Pensions Authority registration number: SR123456',
      // 10:00 UTC on 2 March is 10:00 in Ireland (GMT in winter).
      `Prepared on 2 Mar 2026 at 10:00, Irish time, by ${staff.name}, Murphy & Byrne Brokers (broker staff).`,
      'This pack holds this summary, two documents of the scheme and manifest.json',
      'Three documents of the scheme are left out, and manifest.json lists each with the reason: two are about one member',
      'one is held back by the malware check.',
      'Overall standing on 2 Mar 2026:',
      'Two trustees are recorded.',
      'One key function holder is recorded.',
      'Two written policies are recorded.',
      'One own-risk assessment is recorded.',
    ]) {
      expect(text, phrase).toContain(phrase);
    }
    // No internal id, no ISO date or time, no "(s)".
    expect(text).not.toContain(place.schemeId);
    expect(text).not.toContain('Scheme reference');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(text).not.toContain('(s)');
  });

  it('never ends a page with a heading, nor leaves a page nearly empty', () => {
    const { pages } = readPdf(pack.entries.get('summary.pdf') as Buffer);
    const headings = new Set([
      'About this pack',
      'Compliance',
      'Trustees',
      'Key function holders',
      'Written policies',
      'Own-risk assessments',
    ]);
    expect(pages.length).toBeGreaterThan(0);
    for (const [index, page] of pages.entries()) {
      const lines = page
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      expect(headings.has(lines.at(-1) ?? ''), `page ${index + 1} ends with its heading`).toBe(
        false,
      );
      // More than a stray line or two: a table's rows, or a heading with what it introduces.
      expect(lines.length, `page ${index + 1}: ${lines.join(' | ')}`).toBeGreaterThan(5);
    }
  });

  it('names each standing, kind and status in the words the governance pages show', async () => {
    const text = flowing(readPdf(pack.entries.get('summary.pdf') as Buffer).text);
    const compliance = (
      await t.requestAs(staff, 'GET', `/api/schemes/${place.schemeId}/compliance`)
    ).json() as {
      status: ObligationStatus;
      obligations: Array<{ kind: ObligationKind; status: ObligationStatus }>;
    };
    expect(text).toContain(
      `Overall standing on 2 Mar 2026: ${OBLIGATION_STATUS_LABELS[compliance.status]}.`,
    );
    for (const obligation of compliance.obligations) {
      expect(text).toContain(
        `${OBLIGATION_NAMES[obligation.kind]} ${OBLIGATION_STATUS_LABELS[obligation.status]}`,
      );
    }
    for (const phrase of [
      `Aoife Trustee, chair ${TRUSTEE_KIND_NAMES.individual}`,
      `Trustco Limited ${TRUSTEE_KIND_NAMES.corporate}`,
      FITNESS_NAMES.confirmed,
      `2.1 ${POLICY_STATUS_NAMES.approved} 15 Jan 2025, Board meeting 15 January 2025, minute 3.1`,
      `0.3 ${POLICY_STATUS_NAMES.draft}`,
      ORA_TRIGGER_NAMES.scheduled,
    ]) {
      expect(text, phrase).toContain(flowing(phrase));
    }
  });
});

describe('what the pack never holds', () => {
  it('no e-mail address and no PPS number, in its bytes, its inflated PDF or the PDF text', () => {
    const pdf = readPdf(pack.entries.get('summary.pdf') as Buffer);
    const haystacks = [
      packBytes.toString('latin1'),
      ...[...pack.entries.values()].map((bytes) => bytes.toString('utf8')),
      ...pdf.streams,
      pdf.text,
    ];
    const secrets = [
      HOLDER_EMAIL,
      TRUSTEE_EMAIL,
      TRUSTEE_PHONE,
      member.ppsNumber,
      'aoife.member@example.ie',
      staff.email,
    ];
    for (const haystack of haystacks) {
      for (const secret of secrets) expect(haystack).not.toContain(secret);
    }
    for (const haystack of [pdf.text, (pack.entries.get('manifest.json') as Buffer).toString()]) {
      expect(haystack).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
    }
  });
});

describe('who may have a pack', () => {
  it('an EmployerAdmin of the scheme’s employer may', async () => {
    const response = await packAs(employerAdmin);
    expect(response.statusCode).toBe(200);
    expect((await unzip(response.rawPayload)).has('manifest.json')).toBe(true);
  });

  it('an EmployerUser and a Member are refused (403), as the policy table says', async () => {
    expect((await packAs(employerUser)).statusCode).toBe(403);
    expect((await packAs(memberUser)).statusCode).toBe(403);
  });

  it('another tenant’s scheme reads as missing (404), and nothing is audited for it', async () => {
    const response = await packAs(otherTenantAdmin);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const audited = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'scheme.evidence_pack_generated'),
          eq(auditLog.actorId, otherTenantAdmin.id),
        ),
      );
    expect(audited).toEqual([]);
  });
});

describe('a client that goes away mid-pack', () => {
  /** The files under the document store this process holds open (Linux: /proc/self/fd). */
  const openDocuments = async () => {
    const root = path.resolve(t.config.documents.storageRoot);
    const links = await Promise.all(
      (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
    );
    return links.filter((target) => target.startsWith(`${root}${path.sep}`));
  };

  it.skipIf(process.platform !== 'linux')(
    'leaves no document open once the connection is gone',
    async () => {
      const employerId = await createEmployer(t.database, place.brokerId, 'Large Files Ltd');
      const schemeId = await createScheme(t.database, { id: employerId, brokerId: place.brokerId });
      for (const name of ['One.pdf', 'Two.pdf', 'Three.pdf']) {
        const content = Buffer.concat([SAMPLES.pdf, randomBytes(8 * 1024 * 1024)]);
        const form = documentForm(name, content, { documentType: 'other' });
        const created = await t.app.inject({
          method: 'POST',
          url: `/api/schemes/${schemeId}/documents`,
          headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(staff)}` },
          payload: form.payload,
        });
        expect(created.statusCode, created.body).toBe(201);
      }
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const token = await t.tokenFor(staff);
      // The client hangs up part-way through the second document, with megabytes still to come.
      await new Promise<void>((resolve, reject) => {
        const outgoing = request(
          `${address}/api/schemes/${schemeId}/evidence-pack`,
          { headers: { authorization: `Bearer ${token}` } },
          (response) => {
            expect(response.statusCode).toBe(200);
            let received = 0;
            response.on('data', (chunk: Buffer) => {
              received += chunk.length;
              if (received > 10 * 1024 * 1024 && !outgoing.destroyed) {
                outgoing.destroy();
                resolve();
              }
            });
          },
        );
        outgoing.on('error', (error) => {
          if (!outgoing.destroyed) reject(error);
        });
        outgoing.end();
      });
      await expect.poll(openDocuments, { timeout: 5_000 }).toEqual([]);
    },
  );
});

describe('a document whose stored bytes changed', () => {
  it('cuts the archive short and logs a security event naming ids only', async () => {
    const employerId = await createEmployer(t.database, place.brokerId, 'Tampered Ltd');
    const schemeId = await createScheme(t.database, { id: employerId, brokerId: place.brokerId });
    const form = documentForm('Deed.pdf', SAMPLES.pdf, { documentType: 'trust_deed' });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/schemes/${schemeId}/documents`,
      headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(staff)}` },
      payload: form.payload,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as { id: string };
    const [row] = await ownerOf(t.database)
      .select({ storageKey: documents.storageKey })
      .from(documents)
      .where(and(eq(documents.id, id), eq(documents.brokerId, place.brokerId)));
    // Same length, different bytes: only the hash can tell.
    const altered = Buffer.from(SAMPLES.pdf);
    altered[altered.length - 2] = 0x58;
    await writeFile(`${t.config.documents.storageRoot}/${row?.storageKey}`, altered);

    const response = await packAs(staff, schemeId).catch((error: unknown) => error);
    if (!(response instanceof Error)) {
      await expect(unzip((response as { rawPayload: Buffer }).rawPayload)).rejects.toThrow();
    }
    const events = t.logs
      .entries()
      .filter((entry) => entry.securityEvent === 'document.integrity_failed');
    expect(events).toHaveLength(1);
    expect(String(events[0]?.reason)).toContain(id);
    expect(JSON.stringify(events)).not.toMatch(/Deed\.pdf/);
  });
});
