import { z } from 'zod';
import { FIELD_MESSAGES, installPlainEnglish } from './plain-english.js';

// Every schema built from these fields speaks plain English, on the server and in the browser.
installPlainEnglish();

/**
 * The rules every text field of the API shares (bodies, queries and path parameters), and the
 * CSV import through the same field rules. Shared code: the browser's forms import the same
 * fields, so a form says exactly what the API would.
 *
 * Two properties hold for every field built here:
 *
 * - The length bound runs first and stops every later check (`abort: true`): Zod otherwise goes
 *   on to the next checks after a failed one, so a pattern would still see a 1 MiB value the
 *   length check has already refused (docs/decisions/0034-linear-patterns.md). No pattern here runs on more text than
 *   the field may hold.
 * - No C0 control character (U+0000 to U+001F), no DEL (U+007F) and no C1 control character
 *   (U+0080 to U+009F): a NUL byte cannot be stored by PostgreSQL, and the database error it
 *   causes carried the whole row into the error log (docs/decisions/0035-control-characters-and-database-errors.md); the C1 controls are
 *   invisible, no one types them, and they are what the five bytes Windows-1252 leaves undefined
 *   read as in an uploaded file (docs/decisions/0078-upload-text-encoding.md). The invisible
 *   characters that reorder or split text (`isInvisibleFormatting`) are refused with them. Text
 *   that is not well-formed UTF-16 (a lone surrogate) is refused too:
 *   it would be stored silently altered. Fields that may hold several lines (an address, the
 *   reason for a correction) accept line feed, carriage return and tab, and nothing else below
 *   U+0020.
 */

/** The `params.reason` of the issue a control character raises, for callers that map codes. */
export const CONTROL_CHARACTER_REASON = 'control_character';
export const CONTROL_CHARACTER_MESSAGE = FIELD_MESSAGES.controlCharacters;

const LONE_SURROGATE = /\p{Surrogate}/u;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const DELETE = 0x7f;
/** The last C1 control character; the first follows DELETE. */
const LAST_C1 = 0x9f;
/**
 * Characters that show nothing yet change what is shown or matched, refused like the controls:
 * the bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069), which
 * can make a name read backwards on a page, in the audit log or in a CSV ("Trojan Source",
 * CVE-2021-42574); the zero-width space (U+200B), the word joiner (U+2060) and the zero-width
 * no-break space (U+FEFF) inside a value, which make two names that look the same differ. The
 * zero-width joiner and non-joiner, and the left-to-right and right-to-left marks, are written
 * by some scripts' keyboards and stay accepted.
 */
function isInvisibleFormatting(unit: number): boolean {
  return (
    (unit >= 0x202a && unit <= 0x202e) ||
    (unit >= 0x2066 && unit <= 0x2069) ||
    unit === 0x200b ||
    unit === 0x2060 ||
    unit === 0xfeff
  );
}

/** True when `text` holds a character its field does not accept (one pass over the text). */
export function hasControlCharacters(text: string, options: { multiline?: boolean } = {}): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit >= DELETE && unit <= LAST_C1) return true;
    if (isInvisibleFormatting(unit)) return true;
    if (unit < 0x20) {
      const lineBreakOrTab = unit === TAB || unit === LINE_FEED || unit === CARRIAGE_RETURN;
      if (!(options.multiline && lineBreakOrTab)) return true;
    }
  }
  return false;
}

export interface TextRules {
  /** Characters (code points, as Zod counts them) after trimming. */
  max: number;
  /** Leading and trailing white space is dropped before any check; true unless told. */
  trim?: boolean;
  /** May hold line feeds, carriage returns and tabs (addresses, reasons). */
  multiline?: boolean;
  /** The message for text beyond `max`, where Zod's own would say less than the field's rule. */
  tooLong?: string;
}

/**
 * A text field: trimmed, bounded, free of control characters. Add `.min()`, `.regex()` or a
 * refinement after it; they only ever see text within the bound.
 */
export function text({ max, trim = true, multiline = false, tooLong }: TextRules) {
  const base = trim ? z.string().trim() : z.string();
  return base
    .max(max, { abort: true, ...(tooLong ? { message: tooLong } : {}) })
    .refine((value) => !hasControlCharacters(value, { multiline }) && !LONE_SURROGATE.test(value), {
      message: CONTROL_CHARACTER_MESSAGE,
      params: { reason: CONTROL_CHARACTER_REASON },
      abort: true,
    });
}

/** RFC 5321: at most 64 characters before the `@`, 254 for a whole forward path; 320 is a safe cap. */
export const EMAIL_MAX_LENGTH = 320;

/**
 * An e-mail address: something without spaces or `@`, an `@`, and a domain of at least two
 * labels, none of them empty. Any script is accepted (`seán@gmaíl.ie`). Each label is followed
 * by a dot or the end, and no label holds a dot, so no two quantifiers can match the same text:
 * a failed match costs one pass. The pattern it replaces, `[^\s@]+\.[^\s@]+` after the `@`, let
 * both quantifiers take the dots, and `a@` followed by many dots took quadratic time.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
export const EMAIL_MESSAGE = FIELD_MESSAGES.email;

/** An e-mail address as a field: bounded, checked for control characters, then for its shape. */
export const emailAddress = text({ max: EMAIL_MAX_LENGTH })
  .min(3, { abort: true, message: EMAIL_MESSAGE })
  .regex(EMAIL_PATTERN, EMAIL_MESSAGE);

/** The longest phone number kept: the 15 digits of ITU-T E.164 with room for spaces and a prefix. */
export const PHONE_MAX_LENGTH = 30;
/** Digits, spaces, brackets, dashes, dots and slashes, with one leading `+`: one pass, no nesting. */
export const PHONE_PATTERN = /^\+?[0-9 ()./-]+$/;
/** ITU-T E.164: a number has at most 15 digits; fewer than 7 is no number anyone dials. */
const PHONE_DIGITS = { min: 7, max: 15 } as const;

/**
 * A phone number as people write it ("01 234 5678", "+353 (0)87 123-4567"): kept as typed, once
 * it holds only what a number is written with and between 7 and 15 digits.
 */
export const phoneNumber = text({ max: PHONE_MAX_LENGTH, tooLong: FIELD_MESSAGES.phone })
  .min(1, { abort: true, message: FIELD_MESSAGES.phone })
  .regex(PHONE_PATTERN, { abort: true, message: FIELD_MESSAGES.phone })
  .refine((value) => {
    const digits = value.replace(/\D/g, '').length;
    return digits >= PHONE_DIGITS.min && digits <= PHONE_DIGITS.max;
  }, FIELD_MESSAGES.phone);

/** A path parameter or reference naming a record: ids are CUID2s, well under 64 characters. */
export const idText = text({ max: 64, trim: false }).min(1, FIELD_MESSAGES.recordId);
