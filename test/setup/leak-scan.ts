import { afterAll, expect } from 'vitest';
import { forgetEvidence, NO_PERSONAL_DATA, scanEvidence } from '../helpers/leak-registry.js';

/**
 * docs/decisions/0134-the-contract-in-this-repository.md ("Personal data and secrets stay inside")
 * and docs/decisions/0035-control-characters-and-database-errors.md over a whole test run: after
 * every test file, no log line and no response body of any app the file built holds a PPS number
 * the file used (the reveal answer excepted), and no log line holds anything shaped like one. No
 * log line holds an e-mail address (in any script), a name the file gave a person, a password hash
 * or a database parameter list; no response body holds a password hash or a parameter list.
 */
afterAll(() => {
  try {
    const { pps, personal } = scanEvidence();
    expect(pps, 'PPS numbers in logs or responses').toEqual({ known: [], shaped: [] });
    expect(personal, 'personal data in logs or responses').toEqual(NO_PERSONAL_DATA);
  } finally {
    // A worker runs file after file in one module graph (vitest.config.ts): the next file's scan
    // starts from nothing, and this file's logs are not held for the rest of the run.
    forgetEvidence();
  }
});
