import { describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_MIN_LENGTH, passwordProblem, verifyPassword } from './passwords.js';

describe('password policy', () => {
  it('refuses fewer than 12 characters, counting characters rather than bytes', async () => {
    expect(await passwordProblem('a'.repeat(PASSWORD_MIN_LENGTH - 1))).toMatch(/at least 12/);
    expect(await passwordProblem('ééééééééééé')).toMatch(/at least 12/);
    expect(await passwordProblem('tall ships in dún laoghaire')).toBeNull();
  });

  it('refuses the most common passwords in any case', async () => {
    expect(await passwordProblem('1qaz2wsx3edc')).toBe(
      'This password is too common: choose one that is harder to guess',
    );
    expect(await passwordProblem('1Q2W3E4R5T6Y')).toBe(
      'This password is too common: choose one that is harder to guess',
    );
  });

  it('accepts a 64-character passphrase and more', async () => {
    expect(await passwordProblem(`${'x'.repeat(40)} a long passphrase for pensions`)).toBeNull();
    expect(await passwordProblem('y'.repeat(200))).toBeNull();
  });
});

describe('password hashing', () => {
  it('uses bcrypt at work factor 12', async () => {
    expect(await hashPassword('tall ships in dún laoghaire')).toMatch(/^\$2b\$12\$/);
  });

  it('keeps every byte significant beyond bcrypt’s 72-byte limit', async () => {
    const shared = 'p'.repeat(100);
    const hash = await hashPassword(`${shared}-one`);
    expect(await verifyPassword(`${shared}-one`, hash)).toBe(true);
    expect(await verifyPassword(`${shared}-two`, hash)).toBe(false);
    expect(await verifyPassword(shared, hash)).toBe(false);
  });
});

describe('bcrypt work under load', () => {
  it('answers every one of many simultaneous comparisons correctly, queued beyond the slots', async () => {
    const hash = await hashPassword('queued comparison passphrase');
    const guesses = Array.from({ length: 8 }, (_, n) =>
      n % 2 === 0 ? 'queued comparison passphrase' : `wrong guess number ${n}`,
    );
    const outcomes = await Promise.all(guesses.map((guess) => verifyPassword(guess, hash)));
    expect(outcomes).toEqual([true, false, true, false, true, false, true, false]);
  });
});
