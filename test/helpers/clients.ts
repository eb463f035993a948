import { randomInt } from 'node:crypto';

/**
 * Client addresses no other request has used: suites that are not about per-IP limits send each
 * request from its own address. The random block keeps runs apart when counters live in a shared
 * Redis that outlives one run.
 */
const block = `100.${randomInt(64, 128)}`;
let next = randomInt(0, 1024);

export function uniqueClientAddress(): string {
  next = (next + 1) % 65_536;
  return `${block}.${Math.floor(next / 256)}.${next % 256}`;
}
