import { describe, expect, it } from 'vitest';
import {
  EMPTY_DENYLIST,
  inspectOutgoing,
} from '../../src/server/modules/ai/provider-guard.rules.js';
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

  it('finds a member by surname alone, without accents, in either order, and by dates and sums as people write them', () => {
    const denylist = {
      names: ['Seán Kelly'],
      familyNames: ['Kelly'],
      datesOfBirth: ['1980-03-03'],
      salaryCents: [4_512_300],
    };
    for (const written of ['Does Kelly’s pension', 'Kelly, Sean', 'KELLY', 'Ｋｅｌｌｙ']) {
      expect(inspect(written, denylist), written).toEqual(['member_name']);
    }
    for (const written of ['March 3, 1980', '1980/03/03', '19800303', '3rd of March 1980']) {
      expect(inspect(`born ${written}`, denylist), written).toEqual(['member_date_of_birth']);
    }
    for (const written of ['45 123', '45.123,00', 'EUR 45,123.00']) {
      expect(inspect(`a figure of ${written}`, denylist), written).toEqual(['member_salary']);
    }
    expect(inspect('The trustees of the scheme review it in March 1980', denylist)).toEqual([]);
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

  it('finds IBANs whose check digits hold, whole or grouped, and not one whose digits are wrong', () => {
    expect(inspect('Pay it to IE29 AIBK 9311 5212 3456 78 please')).toEqual(['iban']);
    expect(inspect('iban: ie29aibk93115212345678')).toEqual(['iban']);
    expect(inspect('Pay it to IE28 AIBK 9311 5212 3456 78 please')).toEqual([]);
  });

  it('reads full-width, spaced and dashed PPS numbers as PPS numbers, and leaves the corpus’s citations alone', () => {
    const pps = newPpsNumber();
    const digits = pps.slice(0, 7);
    for (const written of [
      `${digits}-${pps.slice(7)}`,
      `PPS:${pps}`,
      `${digits.slice(0, 3)} ${digits.slice(3)} ${pps.slice(7)}`,
      [...pps].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join(''),
    ]) {
      expect(inspect(`Member ${written} asked`), written).toEqual(['pps_number']);
    }
    expect(inspect('S.I. No. 128/2021 reg. 28 and Directive (EU) 2016/2341 Art. 21')).toEqual([]);
  });

  it('runs in linear time on long adversarial input, and no pattern with a quantifier reads more than a token', () => {
    const shapes = ['1 ', '1-', 'IE12 ', 'march 3 ', '@a.', 'ab', '1234567', '€1,0', 'k ', "o'"];
    const denylist = {
      names: ['seán kelly'],
      familyNames: ['Kelly'],
      datesOfBirth: ['1980-03-03'],
      salaryCents: [4_500_000],
    };
    /** A quantifier outside escapes and character classes: a pattern that can backtrack. */
    const quantified = (source: string) => {
      let inClass = false;
      for (let index = 0; index < source.length; index += 1) {
        const character = source[index] as string;
        if (character === '\\') index += 1;
        else if (inClass) inClass = character !== ']';
        else if (character === '[') inClass = true;
        else if ('*+?{'.includes(character)) return true;
      }
      return false;
    };
    const original = RegExp.prototype.exec;
    let longest = 0;
    RegExp.prototype.exec = function exec(this: RegExp, input: string) {
      if (quantified(this.source)) longest = Math.max(longest, String(input).length);
      return original.call(this, input);
    };
    // Linear time is stated without a clock (test/http/linear-patterns.test.ts): on input at the
    // body limit, no pattern able to backtrack ever runs on more than a token's length.
    try {
      for (const shape of shapes) {
        const text = shape.repeat(Math.ceil(400_000 / shape.length)).slice(0, 400_000);
        inspectOutgoing(body(text), denylist, ['s3cret-value']);
      }
    } finally {
      RegExp.prototype.exec = original;
    }
    expect(longest).toBeLessThanOrEqual(1_000);
  });

  it('refuses an unbroken run too long for any word, address or number, as a possible key', () => {
    expect(inspect(`token ${'Ab1'.repeat(400)}`)).toEqual(['secret']);
  });
});
