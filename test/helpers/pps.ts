import { randomInt } from 'node:crypto';
import { createPpsKeyring } from '../../src/server/platform/crypto/pps-keyring.js';
import { TEST_SECRETS } from './config.js';

const CHECK_ALPHABET = 'WABCDEFGHIJKLMNOPQRSTUV';
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2];

/** Every PPS number a test of this file made up: the leak scan looks for each of them. */
export const issuedPpsNumbers = new Set<string>();

/** A valid PPS number no other call of this file returned (with a second letter now and then). */
export function newPpsNumber(): string {
  for (;;) {
    const digits = String(randomInt(0, 10_000_000)).padStart(7, '0');
    const second = ['', '', 'A', 'H', 'W'][randomInt(0, 5)] ?? '';
    let sum = WEIGHTS.reduce((total, weight, index) => total + weight * Number(digits[index]), 0);
    if (second === 'A' || second === 'H') sum += 9 * CHECK_ALPHABET.indexOf(second);
    const number = `${digits}${CHECK_ALPHABET[sum % 23]}${second}`;
    if (!issuedPpsNumbers.has(number)) {
      issuedPpsNumbers.add(number);
      return number;
    }
  }
}

/** The keyring the test app holds (TEST_SECRETS), for factories and for checking stored values. */
export const testPpsKeyring = createPpsKeyring({
  current: TEST_SECRETS.PPS_ENCRYPTION_KEY,
  previous: null,
});
