import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredCharset } from '../../src/server/platform/http/utf8-json-body.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { writableTableCounts } from '../helpers/database.js';
import { firmFixture } from '../helpers/fixtures.js';

/**
 * JSON bodies are read as UTF-8 and nothing else (docs/decisions/0150-json-bodies-in-utf-8.md):
 * what a script sends in Latin-1 is refused whole, never saved with its letters replaced.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function send(bytes: Buffer, contentType: string) {
  const { admin } = await firmFixture(t.database, { users: { admin: 'BrokerAdmin' } });
  const token = await t.tokenFor(admin);
  const before = await writableTableCounts(t.database);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/employers',
    payload: bytes,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
  });
  return { response, before };
}

describe('JSON bodies in UTF-8', () => {
  it('keeps a name with a fada exactly as a UTF-8 body writes it', async () => {
    const { response } = await send(
      Buffer.from(JSON.stringify({ name: 'Ó Briain agus Mac Giolla Phádraig Teo' }), 'utf8'),
      'application/json',
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().name).toBe('Ó Briain agus Mac Giolla Phádraig Teo');
  });

  it('reads past a leading byte order mark, as Windows tools write one', async () => {
    const { response } = await send(
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(JSON.stringify({ name: 'Séamus Teo' })),
      ]),
      'application/json; charset=UTF-8',
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().name).toBe('Séamus Teo');
  });

  it('refuses a body in Latin-1 with a clear 400 and writes nothing, never a name with its letters replaced', async () => {
    const { response, before } = await send(
      Buffer.from('{"name":"\u00d3 Briain Teo"}', 'latin1'),
      'application/json',
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The body is not UTF-8: send JSON in UTF-8' });
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('refuses a body that declares another charset with 415 and writes nothing', async () => {
    const { response, before } = await send(
      Buffer.from(JSON.stringify({ name: 'Latin Teo' })),
      'application/json; charset=ISO-8859-1',
    );
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: 'Send JSON in UTF-8' });
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('still refuses prototype keys as invalid JSON', async () => {
    const { response, before } = await send(
      Buffer.from('{"name":"Proto Teo","__proto__":{"role":"SuperAdmin"}}'),
      'application/json',
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Invalid JSON' });
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('still answers a body over the limit with 413 before reading it whole', async () => {
    const { response } = await send(
      Buffer.from(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) })),
      'application/json',
    );
    expect(response.statusCode).toBe(413);
  });

  it('reads the charset parameter wherever it stands and however it is quoted', () => {
    expect(declaredCharset('application/json')).toBeUndefined();
    expect(declaredCharset('application/json; charset=UTF-8')).toBe('utf-8');
    expect(declaredCharset('application/json;foo=bar; Charset="utf8"')).toBe('utf8');
    expect(declaredCharset('application/json; charset=windows-1252')).toBe('windows-1252');
  });
});
