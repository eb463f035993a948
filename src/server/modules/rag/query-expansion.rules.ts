/**
 * The search dictionary of the regulatory corpus, applied to the question
 * (docs/decisions/0123-retrieval-evaluation-and-expansion.md): people ask in their own words
 * ("the earnings threshold for auto-enrolment", "can my staff leave"), the texts use the law's
 * ("gross pay … at least €20,000", "automatic enrolment", "opt out"). Each word of a question is
 * searched for as written and as the texts would say it, and words that only make a question a
 * question ("someone", "get") are not searched for at all.
 *
 * Pure data and one lookup: no pattern runs on the question here, and nothing reads a database.
 */

/**
 * Words a question is made of that say nothing of what it asks about. The English configuration
 * already drops the commonest ("what", "the", "do", "can"); these are the ones it keeps that a
 * person writes around the subject. Left in, a word the texts never use counts as the subject the
 * texts do not cover, and a fair question goes unanswered.
 */
const QUESTION_WORDS: readonly string[] = [
  'also',
  'another',
  'anybody',
  'anyone',
  'anything',
  'back',
  'could',
  'does',
  'everybody',
  'everyone',
  'exactly',
  'get',
  'gets',
  'getting',
  'go',
  'goes',
  'going',
  'got',
  'happen',
  'happens',
  'happened',
  'kind',
  'know',
  'later',
  'let',
  'like',
  'lot',
  'lots',
  'many',
  'may',
  'might',
  'much',
  'must',
  'need',
  'needed',
  'needs',
  'ok',
  'okay',
  'please',
  'put',
  'really',
  'say',
  'says',
  'shall',
  'somebody',
  'someone',
  'something',
  'sort',
  'still',
  'thing',
  'things',
  'us',
  'usually',
  'want',
  'wants',
  'way',
  'whether',
  'would',
  'yes',
];

/**
 * What people write, and the words the regulatory texts use for it. Each key is a word as typed
 * (lower case; its other forms are keys of their own where stemming does not join them), each
 * value the texts' words, searched for as alternatives to it: a passage holding any of them
 * holds the question's word. Only pension, data-protection and ICT vocabulary: a word with a
 * meaning outside the regulations is left alone, so a question about something else still finds
 * nothing.
 */
const TEXTS_WORDS: Readonly<Record<string, readonly string[]>> = {
  // Automatic enrolment.
  auto: ['automatic'],
  autoenrolment: ['automatic enrolment'],
  autoenrollment: ['automatic enrolment'],
  enrollment: ['enrolment'],
  earnings: ['pay'],
  earning: ['pay'],
  salary: ['pay'],
  salaries: ['pay'],
  wage: ['pay'],
  wages: ['pay'],
  income: ['pay'],
  threshold: ['least', 'minimum'],
  thresholds: ['least', 'minimum'],
  ceiling: ['cap'],
  maximum: ['cap'],
  government: ['state'],
  exchequer: ['state'],
  top: ['state contribution'],
  topup: ['state contribution'],
  leave: ['opt'],
  quit: ['opt'],
  refund: ['repaid'],
  refunded: ['repaid'],
  refunds: ['repaid'],
  reimburse: ['repaid'],
  reimbursed: ['repaid'],
  money: ['contributions'],
  break: ['suspend', 'suspension'],
  pause: ['suspend', 'suspension'],
  holiday: ['suspend', 'suspension'],
  join: ['enrol', 'member'],
  joins: ['enrol', 'member'],
  joiner: ['joining', 'member'],
  joiners: ['joining', 'member'],
  starter: ['joining', 'member'],
  starters: ['joining', 'member'],
  often: ['every'],
  frequently: ['every'],
  soon: ['delay', 'within'],
  quickly: ['delay', 'within'],
  fast: ['delay', 'within'],
  start: ['apply', 'application'],
  started: ['apply', 'application'],
  begin: ['apply', 'application'],
  // People and bodies.
  staff: ['employee'],
  worker: ['employee'],
  workers: ['employee'],
  workforce: ['employee'],
  company: ['employer', 'body corporate'],
  companies: ['employer', 'body corporate'],
  boss: ['employer'],
  regulator: ['pensions authority', 'competent authority'],
  regulators: ['pensions authority', 'competent authority'],
  tpr: ['pensions authority'],
  actuary: ['actuarial'],
  actuaries: ['actuarial'],
  auditor: ['audit'],
  administrator: ['administrator', 'processor'],
  // Duties and documents.
  responsible: ['responsibility', 'duties'],
  responsibilities: ['responsibility', 'duties'],
  duty: ['duties'],
  criminal: ['offence'],
  crime: ['offence'],
  prosecuted: ['offence'],
  penalty: ['offence'],
  hire: ['outsource', 'rely'],
  hires: ['outsource', 'rely'],
  appoint: ['appointment'],
  written: ['document', 'writing'],
  writing: ['written', 'document'],
  paperwork: ['document'],
  lighter: ['proportionate'],
  simpler: ['proportionate', 'simplified'],
  simple: ['proportionate', 'simplified'],
  smaller: ['proportionate', 'size'],
  sipp: ['statement investment policy principles'],
  sip: ['statement investment policy principles'],
  esg: ['environmental social governance'],
  climate: ['climate', 'environmental'],
  ora: ['own-risk assessment'],
  officer: ['function'],
  firm: ['provider', 'service provider'],
  firms: ['provider', 'service provider'],
  // ICT and data protection.
  tech: ['ict'],
  technology: ['ict'],
  cyber: ['ict', 'cyber'],
  outage: ['incident'],
  hack: ['incident', 'breach'],
  hacked: ['incident', 'breach'],
  supplier: ['provider', 'third party'],
  suppliers: ['provider', 'third party'],
  vendor: ['provider', 'third party'],
  vendors: ['provider', 'third party'],
  sar: ['access', 'request'],
  dsar: ['access', 'request'],
  reply: ['answer', 'request'],
  respond: ['answer', 'request'],
  delete: ['erase', 'erasure'],
  deleted: ['erase', 'erasure'],
  deletion: ['erase', 'erasure'],
  forgotten: ['erase', 'erasure'],
  medical: ['health'],
  sickness: ['health', 'ill-health'],
  illness: ['health', 'ill-health'],
  leak: ['breach'],
  leaked: ['breach'],
  agreement: ['contract'],
  agreements: ['contract'],
  permission: ['consent'],
  dpia: ['data protection impact assessment'],
  keep: ['retention', 'kept'],
  secure: ['security'],
  safe: ['security'],
  copy: ['access', 'copy'],
  move: ['portability', 'transmitted'],
  send: ['transmitted'],
  sent: ['transmitted'],
  // PRSAs and benefits.
  withdraw: ['benefits taken', 'retirement'],
  drawdown: ['benefits taken', 'retirement'],
  cash: ['lump sum'],
};

const FILLER = new Set(QUESTION_WORDS);

/**
 * Phrases read as one term before their words are: a name the texts call otherwise ("My Future
 * Fund" is the automatic enrolment system), or an idiom whose words mean something else in the
 * regulations ("minimum wage", "annual leave"), searched for as the phrase and nothing more. Up to
 * three words.
 */
const PHRASES: Readonly<Record<string, readonly string[]>> = {
  'my future fund': ['automatic enrolment'],
  'future fund': ['automatic enrolment'],
  'top up': ['state contribution'],
  'money back': ['repaid'],
  'come in': ['applied', 'application'],
  'came in': ['applied', 'application'],
  'come into force': ['applied', 'application'],
  'came into force': ['applied', 'application'],
  'minimum wage': [],
  'annual leave': [],
  'maternity leave': [],
  'paternity leave': [],
  'parental leave': [],
  'sick leave': [],
  'limited company': [],
};
const LONGEST_PHRASE = 3;

/** The most words of a question searched for: its first dozen distinct words carry its subject. */
export const MAX_TERMS = 12;
/** A question is read up to here; longer text is not a question the corpus can answer better. */
export const MAX_QUESTION_CHARS = 1_000;
const MAX_WORD_CHARS = 64;

const CURRENCY = new Set(['€', '£', '$']);

function isDigit(character: string | undefined): boolean {
  return character !== undefined && character >= '0' && character <= '9';
}

function isWordCharacter(character: string): boolean {
  const code = character.codePointAt(0) as number;
  if (code < 0x80) {
    return (
      (code >= 0x30 && code <= 0x39) ||
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a)
    );
  }
  // Letters beyond ASCII (Irish fadas: "Sláinte"), judged without a pattern.
  return character.toLowerCase() !== character.toUpperCase();
}

/**
 * A word of the question as it is searched for: lower case, except "IT" typed in capitals, which
 * is information technology (the texts say ICT) and not the pronoun the stop words drop.
 */
function searchedWord(asTyped: string): string {
  return asTyped === 'IT' ? 'ict' : asTyped.toLowerCase();
}

/**
 * The words of a question in order, split on anything that is not a letter or a digit by walking
 * it once (no pattern runs on the question). A figure is not a word: a sum ("€15,000") or a
 * number with a separator ("1.5") is what a person compares with the rules, not what they ask
 * about, and the texts rarely hold the same figure; counted as words they would weigh as a
 * subject the texts do not cover. A bare number ("28", "64AL") is kept: it names a provision.
 */
function questionWords(question: string): string[] {
  const characters = Array.from(question.slice(0, MAX_QUESTION_CHARS));
  const words: string[] = [];
  let word = '';
  let figure = false;
  const take = () => {
    if (word.length > 0 && word.length <= MAX_WORD_CHARS && !figure) {
      words.push(searchedWord(word));
    }
    word = '';
    figure = false;
  };
  characters.forEach((character, at) => {
    if (isWordCharacter(character)) {
      if (word === '' && CURRENCY.has(characters[at - 1] ?? '')) figure = true;
      word += character;
    } else if (
      (character === ',' || character === '.') &&
      isDigit(word.at(-1)) &&
      isDigit(characters[at + 1])
    ) {
      // "15,000", "1.5": one figure, not two words.
      word += character;
      figure = true;
    } else {
      take();
    }
  });
  take();
  return words;
}

/**
 * What a question is searched for: its words, lower-cased ("IT" in capitals read as ICT), known
 * phrases joined into one term, without figures and the words that only make it a question,
 * de-duplicated, at most MAX_TERMS.
 */
export function questionTerms(question: string): string[] {
  const words = questionWords(question);
  const terms: string[] = [];
  const seen = new Set<string>();
  for (let at = 0; at < words.length && terms.length < MAX_TERMS; ) {
    let term = words[at] as string;
    let length = 1;
    for (let size = Math.min(LONGEST_PHRASE, words.length - at); size > 1; size -= 1) {
      const phrase = words.slice(at, at + size).join(' ');
      if (Object.hasOwn(PHRASES, phrase)) {
        term = phrase;
        length = size;
        break;
      }
    }
    at += length;
    if (!seen.has(term) && !FILLER.has(term)) {
      seen.add(term);
      terms.push(term);
    }
  }
  return terms;
}

/**
 * The term as typed, then the words the texts use for it. Every alternative is searched for as
 * plain words (plainto_tsquery), never as query syntax.
 */
export function alternativesOf(term: string): string[] {
  const table = Object.hasOwn(PHRASES, term) ? PHRASES : TEXTS_WORDS;
  const theirs = Object.hasOwn(table, term) ? (table[term] as readonly string[]) : [];
  return [term, ...theirs.filter((alternative) => alternative !== term)];
}

/** Every word the dictionary leads to, for the test that each is a word of the texts. */
export function dictionaryTargets(): string[] {
  return [...new Set([...Object.values(TEXTS_WORDS), ...Object.values(PHRASES)].flat())];
}
