import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFilename } from '../../src/server/modules/documents/filenames.rules.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { writableTableCounts } from '../helpers/database.js';
import { multipart, SAMPLES } from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * Property (as test/fuzz/request-bodies.property.test.ts for the JSON routes, whose enumeration
 * leaves out this multipart one): whatever form arrives at the upload, the answer is a 201 or a
 * 400/413/415 of the documented shape, never a 500, and a refusal changes no table.
 */
let t: TestApp;
let staff: UserRow;
let schemeId: string;

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore() });
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  schemeId = await createScheme(t.database, { id: employerId, brokerId });
  staff = await createUser(t.database, { brokerId, role: 'BrokerUser' });
});
afterAll(() => t.close());

const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const fieldValue = fc.oneof(
  fc.constantFrom('trust_deed', 'other', 'true', 'false', 'scheme_pdf', ''),
  anyText,
);
const part = fc.oneof(
  fc.record({
    name: fc.constantFrom('documentType', 'memberFacing', 'title', 'extra'),
    value: fieldValue,
  }),
  fc.record({
    name: fc.constantFrom('file', 'attachment'),
    filename: anyText,
    content: fc.oneof(
      fc.constantFrom(SAMPLES.pdf, SAMPLES.png, SAMPLES.docx, SAMPLES.xlsx, SAMPLES.text),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
    ),
  }),
);

describe('POST /api/schemes/:id/documents', () => {
  it('answers any form with a documented status, and a refusal changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(part, { maxLength: 5 }).map((parts) => multipart(parts)),
          fc.uint8Array({ maxLength: 300 }).map((bytes) => ({
            payload: Buffer.from(bytes),
            headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
          })),
        ),
        async (form) => {
          const before = await writableTableCounts(t.database);
          const response = await t.app.inject({
            method: 'POST',
            url: `/api/schemes/${schemeId}/documents`,
            remoteAddress: uniqueClientAddress(),
            headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(staff)}` },
            payload: form.payload,
          });
          expect([201, 400, 413, 415], response.body).toContain(response.statusCode);
          if (response.statusCode !== 201) {
            expect(response.json().error).toBeTypeOf('string');
            expect(await writableTableCounts(t.database)).toEqual(before);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('safeFilename', () => {
  it('always gives one bounded path segment that is not hidden and names nothing above it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (original) => {
        const safe = safeFilename(original);
        expect(safe.length).toBeGreaterThan(0);
        expect([...safe].length).toBeLessThanOrEqual(200);
        expect(Buffer.byteLength(safe)).toBeLessThanOrEqual(240);
        expect(safe).not.toMatch(/[/\\\p{Cc}\p{Cf}]|^\.|\.\.|^\s|\s$/u);
        expect(safeFilename(safe)).toBe(safe);
      }),
      { numRuns: 2000 },
    );
  });
});
