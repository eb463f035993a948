import type { FastifyRouteSchemaDef, FastifySerializerCompiler } from 'fastify/types/schema.js';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * Response bodies pass through their Zod schema, so only the fields it names reach the client
 * (unknown keys are stripped) and a body that breaks its schema becomes a 500, never a leak.
 * fastify-type-provider-zod's own serializer goes through Zod's codec path (`safeEncode`), which
 * measured several times slower per response here; response schemas hold no codecs, so parsing
 * is equivalent.
 */
export const zodResponseSerializer: FastifySerializerCompiler<z.ZodType> =
  ({ schema, method, url }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };

/**
 * The same check by the same schema as `zodResponseSerializer`, and the same bytes, for a route
 * whose answer runs to megabytes (the governance dashboard, docs/benchmarks.md "Governance"): the
 * answer is written out a piece at a time into buffers held outside V8's heap. With the small
 * young generation `npm start` gives V8 (docs/decisions/0004-memory-settings-pglite-and-v8.md),
 * building one string of 5 MB and writing it out measured two to four times dearer than the same
 * text in pieces. Fastify sends a Buffer from a serializer as it sends a string, with its length.
 */
export function zodResponseSerializerInPieces({
  schema,
  method,
  url,
}: FastifyRouteSchemaDef<unknown>): (data: unknown) => string {
  // Fastify hands a route's serializer compiler the response schema of one status, whatever the
  // route option's type says; on these routes that is a Zod schema.
  const responseSchema = schema as z.ZodType;
  const serialize = (data: unknown): Buffer | string => {
    const result = responseSchema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return jsonInPieces(result.data);
  };
  // Fastify's type says a serializer gives a string; its reply sends a Buffer as it sends one.
  return serialize as (data: unknown) => string;
}

/** Text is turned into bytes once a piece grows past this many characters. */
const PIECE_CHARS = 16 * 1024;

/**
 * `JSON.stringify(value)` as bytes, built an element at a time for an array, or for the arrays
 * that are an object's fields: what a response body is. Anything else (a string, a number, an
 * object that says how it is written with `toJSON`) is JSON.stringify's own text.
 */
export function jsonInPieces(value: unknown): Buffer | string {
  if (!isWrittenByParts(value)) return JSON.stringify(value);
  const pieces: Buffer[] = [];
  let text = '';
  const add = (part: string) => {
    text += part;
    if (text.length >= PIECE_CHARS) {
      pieces.push(Buffer.from(text));
      text = '';
    }
  };
  const addArray = (items: readonly unknown[]) => {
    add('[');
    for (let index = 0; index < items.length; index += 1) {
      if (index > 0) add(',');
      // As JSON.stringify writes an array: an element it cannot write is null.
      add(JSON.stringify(items[index]) ?? 'null');
    }
    add(']');
  };
  if (Array.isArray(value)) {
    addArray(value);
  } else {
    add('{');
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      const written = isWrittenByParts(item) && Array.isArray(item) ? null : JSON.stringify(item);
      // As JSON.stringify writes an object: a field it cannot write is left out.
      if (written === undefined) continue;
      add(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
      first = false;
      if (written === null) addArray(item as readonly unknown[]);
      else add(written);
    }
    add('}');
  }
  pieces.push(Buffer.from(text));
  return Buffer.concat(pieces);
}

/** An array, or an object written field by field: nothing that names its own `toJSON`. */
function isWrittenByParts(value: unknown): value is object {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}
