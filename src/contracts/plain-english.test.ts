import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectPlainEnglish } from '../../test/helpers/plain-english.js';
import {
  brokerUserInput,
  colleagueInput,
  employerInput,
  employerUserInput,
  schemeChange,
  schemeInput,
} from './organisation.js';
import { newPassword } from './passwords.js';
import { FIELD_MESSAGES, plainEnglish } from './plain-english.js';
import { emailAddress, text } from './text.js';

/** Field → the first sentence a schema gives for it, as a form shows them. */
function sentences(schema: z.ZodType, body: unknown): Record<string, string> {
  const result = schema.safeParse(body);
  if (result.success) return {};
  const byField: Record<string, string> = {};
  for (const issue of result.error.issues) byField[issue.path.join('.')] ??= issue.message;
  return byField;
}

describe('form rules in plain English', () => {
  it('names what to do for each field of an empty form, in the words the forms show', () => {
    expect(sentences(employerInput, { name: '' })).toEqual({ name: 'Enter a name' });
    expect(sentences(schemeInput, { name: '', employerId: '' })).toEqual({
      name: 'Enter a name',
      type: 'Choose a scheme type',
      employerId: 'Choose an employer',
    });
    expect(sentences(employerUserInput, { name: ' ', email: '' })).toEqual({
      name: 'Enter a name',
      email: 'Enter an e-mail address, like name@example.ie',
      role: 'Choose a role',
    });
  });

  it('says what is wrong with a value given, never repeating the value', () => {
    expect(
      sentences(schemeInput, { name: 'x'.repeat(201), type: 'DX', employerId: 'not an id' }),
    ).toEqual({
      name: 'Use at most 200 characters',
      type: 'Choose a scheme type',
      employerId: 'Choose an employer',
    });
    expect(sentences(colleagueInput, { name: 'A', email: 'a@b', role: 'BrokerUser' })).toEqual({
      email: FIELD_MESSAGES.email,
    });
    expect(
      sentences(brokerUserInput, {
        name: 'A',
        email: 'a@b.ie',
        role: 'BrokerUser',
        password: 'short',
      }),
    ).toEqual({ password: 'Use at least 12 characters' });
    expect(sentences(text({ max: 10 }), 'tab\there')).toEqual({
      '': FIELD_MESSAGES.controlCharacters,
    });
    expect(sentences(employerUserInput, { name: 'A', email: 'a@b.ie', role: 'Member' })).toEqual({
      memberId: FIELD_MESSAGES.memberForAccount,
    });
    expect(sentences(schemeChange, {})).toEqual({ '': 'Change at least one field' });
  });

  it('counts a password in characters, as a person does', () => {
    expect(newPassword.safeParse('🔒'.repeat(12)).success).toBe(true);
    expect(sentences(newPassword, '🔒'.repeat(11))).toEqual({ '': 'Use at least 12 characters' });
  });

  it('gives every kind of refusal without a sentence of its own a plain one', () => {
    const schema = z.object({
      text: z.string(),
      count: z.number().int().min(1).max(5),
      step: z.number().multipleOf(5),
      list: z.array(z.string()).min(2),
      choice: z.enum(['a', 'b']),
      flag: z.boolean(),
      either: z.union([z.string(), z.number()]),
      mail: z.email(),
      strict: z.strictObject({}),
    });
    const problems = sentences(schema, {
      count: 9.5,
      step: 7,
      list: [],
      choice: 'c',
      flag: 'yes',
      either: true,
      mail: 'nobody',
      strict: { extra: 1 },
    });
    expect(problems).toEqual({
      text: 'This is required',
      count: 'Enter a whole number',
      step: 'Enter a multiple of 5',
      list: 'Add at least 2',
      choice: 'Choose one of: a, b',
      flag: 'Choose yes or no',
      either: 'This is not in any of the accepted forms',
      mail: FIELD_MESSAGES.email,
      strict: 'Not a field this accepts: extra',
    });
    for (const message of Object.values(problems)) expectPlainEnglish(message);
    expect(sentences(z.number().max(5), 6)).toEqual({ '': 'Enter 5 or less' });
    expect(sentences(z.string().min(3), 'ab')).toEqual({ '': 'Use at least 3 characters' });
    expect(sentences(z.string().min(1), '')).toEqual({ '': 'Fill this in' });
  });

  it('keeps every sentence of the catalogue plain, and the error map total', () => {
    for (const message of Object.values(FIELD_MESSAGES)) {
      expectPlainEnglish(typeof message === 'function' ? message(12) : message);
    }
    expectPlainEnglish(plainEnglish({ code: 'custom', input: 1, path: [] } as never));
    expect(sentences(emailAddress, 'a@b')).toEqual({ '': FIELD_MESSAGES.email });
  });

  it('judges only our words when a sentence names the unknown field the client sent', () => {
    // A generated key such as "<=" is the client's text quoted back, not a validator word.
    expect(sentences(z.strictObject({}), { '<=': null })).toEqual({
      '': 'Not a field this accepts: <=',
    });
    expectPlainEnglish('Not a field this accepts: <=, expected');
    expect(() => expectPlainEnglish('Too small: expected >=1')).toThrow();
    expect(() => expectPlainEnglish('Not a field: <=')).toThrow();
  });
});
