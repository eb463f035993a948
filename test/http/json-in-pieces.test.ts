import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  jsonInPieces,
  zodResponseSerializer,
  zodResponseSerializerInPieces,
} from '../../src/server/platform/http/zod-serializer.js';

/**
 * A large answer written in pieces (the governance dashboard) is the same bytes JSON.stringify
 * writes, checked by its schema as strictly as every other answer.
 */
const text = (value: Buffer | string) => (typeof value === 'string' ? value : value.toString());

describe('an answer written in pieces', () => {
  it('is byte for byte what JSON.stringify writes', () => {
    const many = Array.from({ length: 3000 }, (_, index) => ({
      id: `scheme-${index}`,
      name: `Scéim ${index} — “quoted” \\ \n`,
      due: index % 3 === 0 ? undefined : '2026-11-30',
      at: new Date(Date.UTC(2026, 10, index % 28)),
      list: [index, null, undefined, () => index],
    }));
    const values: unknown[] = [
      {
        counts: { ok: 1 },
        schemes: many,
        upcoming: [],
        skipped: undefined,
        fn: () => 1,
        last: 'x',
      },
      many,
      [],
      {},
      { only: undefined },
      { a: [undefined, () => 1, Symbol('s')], b: null, c: 0, d: false },
      { when: new Date(Date.UTC(2026, 0, 1)) },
      new Date(Date.UTC(2026, 0, 1)),
      'plain',
      42,
      null,
    ];
    for (const value of values) {
      const written = jsonInPieces(value);
      expect(text(written)).toBe(JSON.stringify(value));
    }
    expect(Buffer.isBuffer(jsonInPieces({ schemes: many }))).toBe(true);
  });

  it('keeps to the schema as the ordinary serializer does: unknown fields left out, a broken answer refused', () => {
    const schema = z.object({
      status: z.enum(['ok', 'overdue']),
      rows: z.array(z.object({ id: z.string(), dueOn: z.string().optional() })),
    });
    const route = { schema, method: 'GET', url: '/api/x' };
    const inPieces = zodResponseSerializerInPieces(route);
    const ordinary = zodResponseSerializer(route);
    const answer = {
      status: 'ok',
      secret: 'PPS 1234567T',
      rows: [
        { id: 'a', passwordHash: 'h' },
        { id: 'b', dueOn: '2026-12-01' },
      ],
    };
    const written = text(inPieces(answer));
    expect(written).toBe(ordinary(answer));
    expect(written).not.toContain('secret');
    expect(written).not.toContain('passwordHash');
    expect(() => inPieces({ ...answer, status: 'late' })).toThrow(/response/i);
    expect(() => inPieces({ status: 'ok', rows: [{ id: 1 }] })).toThrow(/response/i);
  });
});
