import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacters } from '../../src/contracts/text.js';
import type { RetrievedChunk } from '../../src/server/modules/rag/retrieval.data.js';
import { members } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createKeyFunctionHolder,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { type FakeProvider, startFakeProvider } from '../helpers/fake-ai-provider.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * Personal data reaches the AI provider in none of the ways people write it
 * (docs/decisions/0134-the-contract-in-this-repository.md, "Personal data and secrets stay inside";
 * docs/decisions/0080-ai-guard-written-forms.md). Every written form of every field of a member,
 * and an IBAN, is put into a question through the real chat path, to a provider that records every
 * request; retrieval always finds a passage, so nothing but the guard stands between the question
 * and the provider. The draft path is checked with the same members on the scheme.
 */
const CHUNK: RetrievedChunk = {
  chunkId: 'chunk-policies',
  citation: 'Pensions Act 1990 s. 64AG',
  title: 'Written policies',
  sourceKind: 'text',
  headingPath: [],
  text: 'Trustees review written policies at least every three years.',
  score: 1,
};

interface Person {
  first: string;
  last: string;
  /** The surname as people also write it: without its accents or its apostrophe. */
  lastVariants: string[];
  firstPlain: string;
  dateOfBirth: string;
  salaryCents: number;
  email: string;
}

const PEOPLE: Person[] = [
  {
    first: 'Seán',
    last: 'Kelly',
    lastVariants: ['KELLY', 'kelly'],
    firstPlain: 'Sean',
    dateOfBirth: '1980-03-03',
    salaryCents: 4_512_300,
    email: 'sean.kelly@example.ie',
  },
  {
    first: 'Siobhán',
    last: "O'Donoghue",
    lastVariants: ['O’Donoghue', 'ODonoghue', 'O Donoghue', 'o’donoghue'],
    firstPlain: 'Siobhan',
    dateOfBirth: '1975-11-28',
    salaryCents: 7_250_050,
    email: 'siobhán.ódonoghue@gmaíl.ie',
  },
  {
    first: 'Pádraig',
    last: 'Doyle',
    lastVariants: ['DOYLE', 'doyle'],
    firstPlain: 'Padraig',
    dateOfBirth: '1990-07-09',
    salaryCents: 3_800_000,
    email: 'p.doyle+pension@mail.example.com',
  },
  {
    first: 'Máire',
    last: 'Ní Bhriain',
    lastVariants: ['Ni Bhriain', 'NÍ BHRIAIN', 'Ní-Bhriain'],
    firstPlain: 'Maire',
    dateOfBirth: '1968-01-31',
    salaryCents: 6_100_000,
    email: 'maire@ní-bhriain.ie',
  },
];

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Full-width forms of ASCII (U+FF01 to U+FF5E), as an East Asian keyboard types them. */
const fullWidth = (text: string) =>
  [...text]
    .map((character) => {
      const code = character.charCodeAt(0);
      return code > 0x20 && code < 0x7f ? String.fromCharCode(code + 0xfee0) : character;
    })
    .join('');

function ppsForms(pps: string): string[] {
  const digits = pps.slice(0, 7);
  const letters = pps.slice(7);
  return [
    pps,
    `${digits}-${letters}`,
    `${digits}/${letters}`,
    `${digits}.${letters}`,
    `PPS:${pps}`,
    `${digits.slice(0, 3)} ${digits.slice(3)} ${letters}`,
    `${digits} ${letters}`,
    pps.toLowerCase(),
    fullWidth(pps),
    `${digits.slice(0, 4)}\u200b${digits.slice(4)}${letters}`,
    `${digits.slice(0, 3)}-${digits.slice(3)}-${letters}`,
  ];
}

function nameForms(person: Person): string[] {
  return [
    `${person.first} ${person.last}`,
    `${person.first} ${person.last}’s`,
    `${person.last}, ${person.first}`,
    `${person.firstPlain} ${person.last}`,
    `${person.last.toUpperCase()} ${person.first}`,
    person.last,
    `${person.last}’s`,
    ...person.lastVariants,
    fullWidth(person.last),
  ];
}

function emailForms(email: string): string[] {
  return [
    email,
    `mailto:${email}`,
    `e-mail: ${email}`,
    `${email}/`,
    `<${email}>`,
    email.toUpperCase(),
    email.replace('@', '＠'),
  ];
}

function dateForms(iso: string): string[] {
  const [year = '', month = '', day = ''] = iso.split('-');
  const d = Number(day);
  const m = Number(month);
  const monthName = MONTH_NAMES[m - 1] as string;
  const ordinal = d === 1 || d === 31 ? 'st' : d === 2 ? 'nd' : d === 3 ? 'rd' : 'th';
  return [
    iso,
    `${day}/${month}/${year}`,
    `${d}/${m}/${year}`,
    `${month}/${day}/${year}`,
    `${year}/${month}/${day}`,
    `${year}${month}${day}`,
    `${day}${month}${year}`,
    `${day}.${month}.${year}`,
    `${monthName} ${d}, ${year}`,
    `${d}${ordinal} ${monthName} ${year}`,
    `${d}${ordinal} of ${monthName}, ${year}`,
    `${d} ${monthName.slice(0, 3)} ${year}`,
    `${monthName.slice(0, 3)} ${d} '${year.slice(2)}`,
    fullWidth(`${day}/${month}/${year}`),
  ];
}

function salaryForms(cents: number): string[] {
  const euro = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, '0');
  const thousands = Math.floor(euro / 1000);
  const hundreds = String(euro % 1000).padStart(3, '0');
  const forms = [
    `€${thousands},${hundreds}.${rest}`,
    `${euro}.${rest}`,
    `${thousands} ${hundreds},${rest} euro`,
    `EUR ${thousands}.${hundreds},${rest}`,
  ];
  if (rest === '00') {
    forms.push(`€${thousands},${hundreds}`, `${euro}`, `${thousands} ${hundreds}`);
    forms.push(`EUR${thousands}.${hundreds}`, `${thousands}\u00a0${hundreds} euro`);
    if (hundreds === '000') forms.push(`€${thousands}k`, `${thousands} K`);
  }
  return forms;
}

/** A valid Irish IBAN (ISO 13616: check digits 98 minus the remainder mod 97). */
function newIban(): string {
  const account = Array.from({ length: 14 }, () => Math.floor(Math.random() * 10)).join('');
  const bban = `AIBK${account}`;
  const numeric = [...`${bban}IE00`]
    .map((character) => (character >= 'A' ? String(character.charCodeAt(0) - 55) : character))
    .join('');
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  return `IE${String(98 - remainder).padStart(2, '0')}${bban}`;
}

function ibanForms(iban: string): string[] {
  const grouped = iban.match(/.{1,4}/g)?.join(' ') ?? iban;
  return [iban, grouped, iban.toLowerCase(), grouped.replace(/ /g, '-'), `IBAN: ${grouped}`];
}

const TEMPLATES = [
  (value: string) => `How often are written policies reviewed by trustees? ${value}`,
  (value: string) => `${value}: how often are written policies reviewed by trustees?`,
  (value: string) => `Does ${value} need the written policies reviewed by trustees?`,
  (value: string) => `How often are written policies reviewed by trustees (${value})?`,
];
const CONTROL = 'How often are written policies reviewed by trustees?';

let fake: FakeProvider;
let t: TestApp;
let consultant: UserRow;
let scheme: { brokerId: string; employerId: string; schemeId: string };
const written: Array<{ field: string; value: string }> = [];

beforeAll(async () => {
  fake = await startFakeProvider();
  t = await buildTestApp({
    counters: uncountedStore(),
    retrieve: async () => [CHUNK],
    env: {
      AI_PROVIDER: 'openai',
      AI_API_KEY: 'platform-provider-key-0080',
      AI_MODEL: 'fake-model',
      AI_BASE_URL: fake.baseUrl,
      AI_RETRY_BASE_MS: '1',
      AI_MONTHLY_REQUEST_LIMIT: '100000',
    },
  });
  const brokerId = await createBroker(t.database, 'Lagan Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Mourne Mills Ltd');
  const schemeId = await createScheme(t.database, { id: employerId, brokerId }, 'Mourne Scheme');
  scheme = { brokerId, employerId, schemeId };
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  for (const person of PEOPLE) {
    const pps = newPpsNumber();
    const member = await createMember(t.database, scheme, {
      ppsNumber: pps,
      firstName: person.first,
      lastName: person.last,
      email: person.email,
    });
    await ownerOf(t.database)
      .update(members)
      .set({ dateOfBirth: person.dateOfBirth, salaryCents: person.salaryCents })
      .where(eq(members.id, member.id));
    for (const value of ppsForms(pps)) written.push({ field: 'PPS number', value });
    for (const value of nameForms(person)) written.push({ field: 'name', value });
    for (const value of emailForms(person.email)) written.push({ field: 'e-mail', value });
    for (const value of dateForms(person.dateOfBirth))
      written.push({ field: 'date of birth', value });
    for (const value of salaryForms(person.salaryCents)) written.push({ field: 'salary', value });
    for (const value of ibanForms(newIban())) written.push({ field: 'IBAN', value });
  }
  await createKeyFunctionHolder(t.database, scheme, {
    function: 'risk_management',
    holderName: 'Órla Ní Cheallaigh',
    holderEmail: 'orla@example.ie',
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.reply = () => ({ text: 'Every three years [[chunk:chunk-policies]].' });
});

const ask = (question: string) => t.requestAs(consultant, 'POST', '/api/ai/chat', { question });

describe('the written forms of personal data', () => {
  it('a question without personal data reaches the provider (the control)', async () => {
    const response = await ask(CONTROL);
    expect(response.statusCode, response.body).toBe(200);
    expect(fake.requests).toHaveLength(1);
  });

  it('no written form of a member’s PPS number, name, surname, e-mail, date of birth or salary, nor an IBAN, reaches the provider through chat', async () => {
    const missed: string[] = [];
    for (const [index, { field, value }] of written.entries()) {
      const question = (TEMPLATES[index % TEMPLATES.length] as (value: string) => string)(value);
      const response = await ask(question);
      if (response.statusCode !== 400 || fake.requests.length > 0) {
        missed.push(`${field}: ${value} (${response.statusCode})`);
      }
      fake.requests.length = 0;
    }
    expect(missed).toEqual([]);
  });

  it('holds for any written form in any sentence, with the case changed or invisible characters inside', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: written.length - 1 }),
        fc.nat({ max: TEMPLATES.length - 1 }),
        fc.constantFrom('as written', 'upper case', 'zero-width', 'soft hyphen'),
        fc.nat({ max: 64 }),
        async (which, template, change, at) => {
          const { value } = written[which] as { value: string };
          const cut = 1 + (at % Math.max(1, value.length - 1));
          const changed =
            change === 'upper case'
              ? value.toUpperCase()
              : change === 'zero-width'
                ? `${value.slice(0, cut)}\u200b${value.slice(cut)}`
                : change === 'soft hyphen'
                  ? `${value.slice(0, cut)}\u00ad${value.slice(cut)}`
                  : value;
          fake.requests.length = 0;
          const question = (TEMPLATES[template] as (value: string) => string)(changed);
          const response = await ask(question);
          expect(response.statusCode).toBe(400);
          // A zero-width space, put in here or in the written form itself, is refused by every
          // text field before the guard reads the question (contracts/text.ts); the other forms
          // by the guard, as personal data.
          if (hasControlCharacters(question)) {
            expect(response.json().issues[0].message).toBe(CONTROL_CHARACTER_MESSAGE);
          } else {
            expect(response.json().issues[0].code).toBe('personal_data');
          }
          expect(fake.requests).toHaveLength(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a draft written with those members on the scheme sends the provider none of their data', async () => {
    fake.reply = () => ({ text: '1. Purpose\n[scheme name] manages risk.' });
    for (const body of [
      { kind: 'written_policy', policyKind: 'risk_management' },
      { kind: 'ora_outline' },
      { kind: 'kfh_appointment_letter' },
    ]) {
      const response = await t.requestAs(consultant, 'POST', '/api/ai/drafts', {
        schemeId: scheme.schemeId,
        ...body,
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    expect(fake.requests).toHaveLength(3);
    const sent = fake.requests.map((request) => request.body.normalize('NFKC')).join('\n');
    for (const person of PEOPLE) {
      for (const value of [
        person.first,
        person.firstPlain,
        person.last,
        person.email,
        person.dateOfBirth,
        String(person.salaryCents / 100),
      ]) {
        expect(sent).not.toContain(value);
      }
    }
    for (const value of ['Órla', 'Cheallaigh', 'orla@example.ie'])
      expect(sent).not.toContain(value);
  });
});
