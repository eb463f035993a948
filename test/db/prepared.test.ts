import { describe, expect, it } from 'vitest';
import { preparedRead } from '../../src/server/platform/db/prepared.js';

describe('preparedRead', () => {
  it('refuses a name already taken, since a connection holds one statement per name', () => {
    const build = () => ({ execute: async () => [] });
    preparedRead('prepared_test_once', build);
    expect(() => preparedRead('prepared_test_once', build)).toThrow(/exists already/);
  });
});
