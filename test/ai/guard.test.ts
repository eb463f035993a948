import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_DENYLIST, inspectOutgoing } from '../../src/server/modules/ai/guard.js';
import { lineDiff } from '../../src/server/modules/ai/line-diff.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { newPpsNumber } from '../helpers/pps.js';

/** The outgoing guard's rules on request bodies as the SDK sends them (JSON). */
const body = (text: string) =>
  JSON.stringify({ model: 'm', messages: [{ role: 'user', content: text }] });
const inspect = (text: string, denylist = EMPTY_DENYLIST) =>
  inspectOutgoing(body(text), denylist, Object.values(TEST_SECRETS));

describe('the outgoing guard', () => {
  it('finds a PPS number whose check letter holds, written with or without a space, and not one whose letter is wrong', () => {
    const pps = newPpsNumber();
    expect(inspect(`Member ${pps} asked`)).toEqual(['pps_number']);
    expect(inspect(`Member ${pps.slice(0, 7)} ${pps.slice(7)} asked`)).toEqual(['pps_number']);
    const wrongLetter = `${pps.slice(0, 7)}${pps[7] === 'A' ? 'B' : 'A'}${pps.slice(8)}`;
    expect(inspect(`Reference ${wrongLetter}`)).toEqual([]);
  });

  it('finds e-mail addresses, tokens, key shapes and the service’s own secrets', () => {
    expect(inspect('Write to mary.byrne@example.ie.')).toEqual(['email_address']);
    expect(inspect('Authorization: Bearer abcdefghijklmnopqrstu')).toEqual(['secret']);
    expect(inspect('token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl')).toEqual(['secret']);
    expect(inspect('use sk-proj-0123456789abcdefghij please')).toEqual(['secret']);
    expect(inspect(`the key is ${TEST_SECRETS.CRON_SECRET}`)).toEqual(['secret']);
    expect(inspect('What does reg. 28 of S.I. No. 128/2021 require of trustees?')).toEqual([]);
  });

  it('finds a salary tied to a person, and leaves sums in rules alone', () => {
    expect(inspect('She earns €48,500 a year: what can she contribute?')).toEqual([
      'salary_figure',
    ]);
    expect(inspect('My salary is 61250.00, how much relief?')).toEqual(['salary_figure']);
    expect(inspect('The earnings limit for tax relief is €115,000.')).toEqual([]);
  });

  it('finds the members of the denylist by full name, date of birth in any common form, and salary', () => {
    const denylist = {
      names: ['siobhan o donoghue'],
      datesOfBirth: ['1985-04-12'],
      salaryCents: [5_500_000],
    };
    expect(inspect("What about Siobhan O'Donoghue?", denylist)).toEqual(['member_name']);
    expect(inspect('Born 12/04/1985', denylist)).toEqual(['member_date_of_birth']);
    expect(inspect('Born 12th April 1985', denylist)).toEqual(['member_date_of_birth']);
    expect(inspect('Born 1985-04-12', denylist)).toEqual(['member_date_of_birth']);
    expect(inspect('a salary of €55,000', denylist)).toEqual(['member_salary']);
    expect(inspect('Siobhan wrote about Donoghue cases', denylist)).toEqual([]);
  });

  it('refuses an unbroken run too long for any word, address or number, as a possible key', () => {
    expect(inspect(`token ${'Ab1'.repeat(400)}`)).toEqual(['secret']);
  });
});

describe('the line diff of an approval', () => {
  it('counts every line of both texts once, as added, removed or unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'e', ''), { maxLength: 30 }),
        (before, after) => {
          const diff = lineDiff(before.join('\n'), after.join('\n'));
          const oldLines = before.join('\n').split('\n').length;
          const newLines = after.join('\n').split('\n').length;
          expect(diff.unchanged + diff.removed).toBe(oldLines);
          expect(diff.unchanged + diff.added).toBe(newLines);
        },
      ),
    );
  });

  it('marks what was taken out and put in', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc\nd')).toEqual({
      added: 2,
      removed: 1,
      unchanged: 2,
      lines: ['- b', '+ B', '  c', '+ d'],
    });
  });
});
