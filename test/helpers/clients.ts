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

/**
 * A service clock that keeps pace with the wall clock and can be put at the start of a clock
 * minute: the sign-in limit counts an address's attempts within the minute of the service's clock
 * (docs/decisions/0107-sign-in-limit-counts-failures.md), so a test whose attempts must fall in
 * one minute starts one there instead of waiting for it. Each start moves the clock on by at most
 * a minute, well inside any session's life.
 */
export function minuteClock(): { now: () => Date; startMinute: () => void } {
  let shift = 0;
  return {
    now: () => new Date(Date.now() + shift),
    startMinute: () => {
      shift += 60_000 - ((Date.now() + shift) % 60_000);
    },
  };
}

/**
 * Failed sign-ins are counted per address within the clock minute
 * (docs/decisions/0107-sign-in-limit-counts-failures.md). A test of a server it did not build
 * itself (a built server in its own process), which runs into that allowance in real time, starts at the top of a minute when less than `neededMs` of the current one is left,
 * so its attempts all fall in one minute.
 */
export async function inOneClockMinute(neededMs: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
