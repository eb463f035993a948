import { createRequire } from 'node:module';

/**
 * Writing a statement's bound values into its text, so that it can travel in one simple-protocol
 * message with the statements before it (docs/decisions.md, "Request path (issue 18)"). Only
 * what can be written unambiguously is: every value becomes a quoted literal whose type
 * PostgreSQL infers from its context exactly as it infers a parameter's, strings as E'' literals
 * (backslashes and quotes doubled, so the result does not depend on standard_conforming_strings),
 * bytes in bytea's hex form. A value that cannot be written (a string with a NUL, which
 * PostgreSQL text cannot hold anyway) makes the caller send the statement with its parameters
 * instead.
 */
export class NotInlinableError extends Error {
  override name = 'NotInlinableError';
}

/**
 * pg's own conversion of a JavaScript value into a parameter's text (Dates, arrays, JSON objects;
 * Buffers pass through), the same one it applies to bound parameters. Its ESM entry does not
 * export it; its utils module does.
 */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue: (value: unknown) => unknown;
};

function literalOf(value: unknown): string {
  const prepared = prepareValue(value);
  if (prepared === null || prepared === undefined) return 'null';
  if (Buffer.isBuffer(prepared)) return `E'\\\\x${prepared.toString('hex')}'`;
  const text = String(prepared);
  if (text.includes('\0')) throw new NotInlinableError('a NUL character');
  return `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * `text` with each `$n` outside quotes, quoted identifiers, dollar quotes and comments replaced
 * by the literal of `values[n - 1]`.
 */
export function inlineValues(text: string, values: readonly unknown[] | undefined): string {
  if (!values || values.length === 0) return text;
  const literals = values.map(literalOf);
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === "'" || c === '"') {
      const end = closingQuote(text, i, c);
      out += text.slice(i, end);
      i = end;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      out += text.slice(i, stop);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      out += text.slice(i, stop);
      i = stop;
    } else if (c === '$') {
      const digits = /^\$(\d+)/.exec(text.slice(i, i + 12));
      if (digits?.[1] && !isIdentifierChar(text[i - 1])) {
        const literal = literals[Number(digits[1]) - 1];
        if (literal === undefined) throw new NotInlinableError('a parameter without a value');
        out += literal;
        i += digits[0].length;
        continue;
      }
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 66));
      if (tag && !isIdentifierChar(text[i - 1])) {
        const end = text.indexOf(tag[0], i + tag[0].length);
        const stop = end === -1 ? n : end + tag[0].length;
        out += text.slice(i, stop);
        i = stop;
        continue;
      }
      out += c;
      i += 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

function isIdentifierChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_]/.test(c);
}

/** Index just past the quote closing the one at `start` (a doubled quote stays inside). */
function closingQuote(text: string, start: number, quote: string): number {
  let i = start + 1;
  // An E'' string in the text itself may escape a quote with a backslash.
  const escapes = quote === "'" && (text[start - 1] === 'E' || text[start - 1] === 'e');
  while (i < text.length) {
    const c = text[i];
    if (escapes && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i += 1;
  }
  return text.length;
}
