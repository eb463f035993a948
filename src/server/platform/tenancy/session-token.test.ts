import { describe, expect, it } from 'vitest';
import {
  createSessionTokens,
  SESSION_ABSOLUTE_SECONDS,
  SESSION_IDLE_SECONDS,
} from './session-token.js';

const claims = {
  userId: 'u1',
  role: 'BrokerAdmin' as const,
  brokerId: 'b1',
  employerId: null,
  passwordChangedAt: 0,
  sessionEpoch: 0,
};

describe('session tokens', () => {
  it('stop verifying at their expiry even after a verification was remembered', async () => {
    let clock = Date.parse('2026-11-06T09:00:00Z');
    const tokens = createSessionTokens({ secret: 'x'.repeat(40), now: () => new Date(clock) });
    const token = await tokens.issue(claims);
    expect(await tokens.verify(token)).toMatchObject({ userId: 'u1' });
    clock += (SESSION_IDLE_SECONDS - 1) * 1000;
    expect(await tokens.verify(token)).toMatchObject({ userId: 'u1' });
    clock += 1000;
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token)).toBeNull();
  });

  it('stop at the absolute lifetime, whatever re-issue kept them fresh', async () => {
    let clock = Date.parse('2026-11-06T09:00:00Z');
    const tokens = createSessionTokens({ secret: 'x'.repeat(40), now: () => new Date(clock) });
    const signedInAt = clock / 1000;
    clock += (SESSION_ABSOLUTE_SECONDS - 60) * 1000;
    const late = await tokens.issue(claims, signedInAt);
    expect(await tokens.verify(late)).not.toBeNull();
    clock += 61 * 1000;
    expect(await tokens.verify(late)).toBeNull();
  });

  it('never remember a token with a bad signature', async () => {
    const tokens = createSessionTokens({ secret: 'x'.repeat(40), now: () => new Date() });
    const token = await tokens.issue(claims);
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(forged)).toBeNull();
    expect(await tokens.verify(forged)).toBeNull();
    expect(await tokens.verify(token)).not.toBeNull();
  });
});
