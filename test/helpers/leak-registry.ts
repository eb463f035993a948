import { issuedPpsNumbers } from './pps.js';

/**
 * What every test app of this file said: its log lines and the bodies it answered with. The leak
 * scan (test/setup/leak-scan.ts) searches them after the file's tests for personal data.
 */
export const evidence = {
  logs: [] as Array<() => string>,
  bodies: [] as string[],
};

/** The one answer that may carry a PPS number in plain text (docs/api.md, "Members and money"). */
export const REVEAL_PATH = /^\/api\/members\/[^/]+\/pps\/reveal$/;

/** Anything shaped like a PPS number (docs/decisions/0028-pps-numbers.md), inside other text. */
const PPS_SHAPE = /(?<![0-9])[0-9]{7}[A-W][ABHWTX]?(?![A-Za-z0-9])/g;

/** The known numbers found in logs or bodies, and anything PPS-shaped in the logs. */
export function findPpsLeaks(
  logText: string,
  bodies: string,
  known: Iterable<string>,
): { known: string[]; shaped: string[] } {
  return {
    known: [...known].filter((number) => logText.includes(number) || bodies.includes(number)),
    shaped: logText.match(PPS_SHAPE) ?? [],
  };
}

/**
 * Every name of a person a test of this file made up (users, members, rows of an import): the
 * scan looks for each in the logs. Factories register the names they give, as they register PPS
 * numbers through newPpsNumber.
 */
export const issuedNames = new Set<string>();

/** Names shorter than this are too common as parts of other words to look for. */
const SHORTEST_NAME = 4;

export function registerName<T extends string>(name: T): T {
  if (name.trim().length >= SHORTEST_NAME) issuedNames.add(name.trim());
  return name;
}

// One character at a time, from each `@` outwards: a pattern free to start anywhere would retry
// the local part at every character of a long log (the scan reads whole test files' logs).
const LOCAL_CHARACTER = /[\p{L}\p{N}._%+-]/u;
const DOMAIN_CHARACTER = /[\p{L}\p{N}.-]/u;

/**
 * E-mail addresses in any script (`seán@gmaíl.ie` as well as `a@b.ie`): something before the
 * `@`, and a domain of two or more labels after it. Looser than the logger's scrubber on purpose,
 * so that what the scrubber misses is found here.
 */
export function findEmailAddresses(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && LOCAL_CHARACTER.test(text[start - 1] as string)) start -= 1;
    let end = at + 1;
    while (end < text.length && DOMAIN_CHARACTER.test(text[end] as string)) end += 1;
    const domain = text.slice(at + 1, end).replace(/[.-]+$/, '');
    const labels = domain.split('.');
    if (start < at && labels.length >= 2 && labels.every((label) => label !== '')) {
      found.push(text.slice(start, at + 1 + domain.length));
    }
  }
  return found;
}

/** bcrypt's modular crypt format: `$2a$12$` and 53 characters of salt and hash. */
const PASSWORD_HASH = /\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}/g;
/**
 * A database parameter list: Drizzle's "Failed query: … params: …" message, or the `params` (and
 * PGlite's `query`) of a driver error serialised whole.
 */
const PARAMETER_LIST =
  /Failed query:|params: |"params":|"query":"(?:select|insert|update|delete|with)\b/gi;

export interface PersonalDataLeaks {
  emailAddresses: string[];
  names: string[];
  passwordHashes: string[];
  parameterLists: string[];
}

/**
 * Personal data where none belongs: in the logs, any e-mail address, any registered name, any
 * password hash or database parameter list; in the bodies (which carry names and addresses by
 * design), any password hash or parameter list.
 */
export function findPersonalDataLeaks(
  logText: string,
  bodies: string,
  names: Iterable<string>,
): PersonalDataLeaks {
  return {
    emailAddresses: findEmailAddresses(logText),
    names: [...names].filter((name) => logText.includes(name)),
    passwordHashes: [
      ...(logText.match(PASSWORD_HASH) ?? []),
      ...(bodies.match(PASSWORD_HASH) ?? []),
    ],
    parameterLists: [
      ...(logText.match(PARAMETER_LIST) ?? []),
      ...(bodies.match(PARAMETER_LIST) ?? []),
    ],
  };
}

export const NO_PERSONAL_DATA: PersonalDataLeaks = {
  emailAddresses: [],
  names: [],
  passwordHashes: [],
  parameterLists: [],
};

/** What the scan after each file finds in everything this file's apps logged and answered. */
export function scanEvidence(): {
  pps: ReturnType<typeof findPpsLeaks>;
  personal: PersonalDataLeaks;
} {
  const logText = evidence.logs.map((read) => read()).join('\n');
  const bodies = evidence.bodies.join('\n');
  return {
    pps: findPpsLeaks(logText, bodies, issuedPpsNumbers),
    personal: findPersonalDataLeaks(logText, bodies, issuedNames),
  };
}

/** Clears what the scan searches, once a file's scan is done. */
export function forgetEvidence(): void {
  evidence.logs.length = 0;
  evidence.bodies.length = 0;
  issuedNames.clear();
  issuedPpsNumbers.clear();
}
