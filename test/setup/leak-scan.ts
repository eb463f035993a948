import { afterAll, expect } from 'vitest';
import { evidence, findPpsLeaks } from '../helpers/leak-registry.js';
import { issuedPpsNumbers } from '../helpers/pps.js';

/**
 * decisions.md §5 over a whole test run: after every test file, no log line and no response body
 * of any app the file built holds a PPS number the file used (the reveal answer excepted), and
 * no log line holds anything shaped like one.
 */
afterAll(() => {
  const leaks = findPpsLeaks(
    evidence.logs.map((read) => read()).join('\n'),
    evidence.bodies.join('\n'),
    issuedPpsNumbers,
  );
  expect(leaks, 'PPS numbers in logs or responses').toEqual({ known: [], shaped: [] });
});
