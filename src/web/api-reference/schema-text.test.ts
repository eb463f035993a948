import { describe, expect, it } from 'vitest';
import { schemaText } from './schema-text';

describe('schemaText', () => {
  it('describes a request body the way a reader scans it', () => {
    expect(
      schemaText({
        type: 'object',
        properties: {
          employerId: { type: 'string' },
          name: { type: 'string', minLength: 1, maxLength: 200 },
          type: { enum: ['DB', 'DC', 'PRSA', 'RAC'] },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['employerId', 'name', 'type'],
      }),
    ).toBe(
      '{\n  employerId: string\n  name: string (1–200 chars)\n  type: "DB" | "DC" | "PRSA" | "RAC"\n  tags?: string[]\n}',
    );
  });
});
