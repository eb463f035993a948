import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';
import { uniqueClientAddress } from './clients.js';
import type { UserRow } from './factories.js';
import { registerName } from './leak-registry.js';
import { issuedPpsNumbers, newPpsNumber } from './pps.js';

/** One row of a members file, by the headings the import documents first. */
export interface MemberCsvRow {
  PPSN: string;
  'First Name': string;
  Surname: string;
  'Date of Birth': string;
  Email: string;
  Address: string;
  'Date Joined': string;
  Salary: string;
  Status: string;
}

export const MEMBER_HEADINGS = [
  'PPSN',
  'First Name',
  'Surname',
  'Date of Birth',
  'Email',
  'Address',
  'Date Joined',
  'Salary',
  'Status',
] as const;

let memberNumber = 0;

/** A valid member row with a PPS number no other row of this run has. */
export function memberRow(overrides: Partial<MemberCsvRow> = {}): MemberCsvRow {
  memberNumber += 1;
  return {
    PPSN: newPpsNumber(),
    'First Name': registerName('Aoife'),
    Surname: registerName(`Murphy ${memberNumber}`),
    'Date of Birth': '1985-04-12',
    Email: `member-${memberNumber}@example.ie`,
    Address: '1 Main Street, Galway',
    'Date Joined': '2015-09-01',
    Salary: '55000.00',
    Status: 'active',
    ...overrides,
  };
}

/** A cell as CSV writes it: quoted when it holds a comma, quote or line break. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\n`;
}

/** A CSV file of `rows` under `headings`; each row gives a value per heading (missing: empty). */
export function csvFile(
  headings: readonly string[],
  rows: ReadonlyArray<Record<string, string>>,
): string {
  return (
    csvLine(headings) + rows.map((row) => csvLine(headings.map((name) => row[name] ?? ''))).join('')
  );
}

export function membersCsv(rows: readonly MemberCsvRow[]): string {
  return csvFile(MEMBER_HEADINGS, rows as unknown as Array<Record<string, string>>);
}

/** POST a CSV body (text, or a stream fed by the test) as this user. */
export async function upload(
  t: TestApp,
  user: UserRow,
  url: string,
  body: string | Readable,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url,
    payload: body,
    remoteAddress: uniqueClientAddress(),
    headers: {
      authorization: `Bearer ${await t.tokenFor(user)}`,
      'content-type': 'text/csv',
      ...headers,
    },
  });
}

export async function getAs(
  t: TestApp,
  user: UserRow,
  url: string,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'GET',
    url,
    remoteAddress: uniqueClientAddress(),
    headers: { authorization: `Bearer ${await t.tokenFor(user)}` },
  });
}

/** A body the test feeds piece by piece, ending it when it chooses. */
export function feedableBody(): { stream: Readable; feed(text: string): void; end(): void } {
  const stream = new Readable({ read() {} });
  return {
    stream,
    feed: (text) => {
      stream.push(text);
    },
    end: () => {
      stream.push(null);
    },
  };
}

/** Every PPS number this run made up that occurs in `text`: there must be none. */
export function leakedPpsNumbers(text: string): string[] {
  return [...issuedPpsNumbers].filter((number) => text.includes(number));
}

const CHECK_ALPHABET = 'WABCDEFGHIJKLMNOPQRSTUV';

/** The same PPS number with another check letter: well formed, and wrong. */
export function withWrongCheckLetter(ppsNumber: string): string {
  const letter = ppsNumber[7] as string;
  const wrong = CHECK_ALPHABET[(CHECK_ALPHABET.indexOf(letter) + 1) % CHECK_ALPHABET.length];
  return `${ppsNumber.slice(0, 7)}${wrong}${ppsNumber.slice(8)}`;
}

/**
 * Polls `probe` every `intervalMs` until it answers something other than null or undefined, for at
 * most `ms`. On PGlite every poll takes the one connection the import also needs: poll gently.
 */
export async function waitFor<T>(
  probe: () => Promise<T | null | undefined>,
  ms = 20_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await probe();
    if (answer !== null && answer !== undefined) return answer;
    if (Date.now() > deadline) throw new Error('waited in vain');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
