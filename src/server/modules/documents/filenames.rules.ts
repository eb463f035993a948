/**
 * Safe names for stored documents (docs/decisions/0062-document-vault.md): the name a file is stored and downloaded under is
 * one path segment that no file system, shell or browser can read as anything else. The name the
 * uploader's computer gave is kept beside it as metadata (documents.original_filename).
 */

/** Bounded in characters and, below, in UTF-8 bytes (255 is the usual file-system limit). */
export const MAX_FILENAME_CHARACTERS = 200;
const MAX_FILENAME_BYTES = 240;
/** The original name is kept up to this many characters (what the column takes). */
export const MAX_ORIGINAL_FILENAME_CHARACTERS = 1024;

/**
 * Slashes and dots that look like `/`, `\` or `.` but are other code points, beyond what NFKC
 * folds (NFKC turns fullwidth `／` into `/` and `․` into `.`, but leaves `∕`, `⁄` and `⧸` alone).
 */
const LOOKALIKE_SEPARATORS = /[\u2044\u2215\u29f8\u29f9\u244a\u2571\u2572\u27cb\u27cd\u3033]/g;
const LOOKALIKE_DOTS = /[\u2024\u3002\uff61\u0701\u0702\ua60e\u06d4]/g;
/**
 * Control characters (C0, DEL, C1) and invisible format characters (bidi overrides, zero-width
 * joiners, soft hyphens, byte-order marks): by Unicode category, so none is forgotten.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;
/** Reserved on Windows or meaningful to a shell or a header, each replaced by `_`. */
const RESERVED = /[/\\:*?"<>|;%]/g;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

/** The last segment of a path as a client may send it (a browser on Windows sends `C:\…\x.pdf`). */
function lastSegment(name: string): string {
  const parts = name.split(/[/\\]/);
  return parts.at(-1) ?? '';
}

function truncateUtf8(name: string, maxBytes: number): string {
  let result = '';
  let bytes = 0;
  for (const character of name) {
    const size = Buffer.byteLength(character);
    if (bytes + size > maxBytes) break;
    result += character;
    bytes += size;
  }
  return result;
}

/**
 * The safe form of an uploaded file's name: NFKC-normalised (fullwidth and compatibility forms
 * fold to ASCII), look-alike slashes and dots turned into `_` and `.`, the last path segment only,
 * controls and invisible characters removed, reserved characters replaced, no leading dots (no
 * hidden files, no `..`), no trailing dots or spaces, runs of dots folded, bounded in length with
 * the extension kept. What is left of nothing is `document`.
 */
export function safeFilename(original: string): string {
  let name = original
    .normalize('NFKC')
    .replace(LOOKALIKE_SEPARATORS, '/')
    .replace(LOOKALIKE_DOTS, '.');
  name = lastSegment(name);
  name = name.replace(INVISIBLE, '').replace(RESERVED, '_');
  name = name.replace(/\s+/g, ' ').replace(/\.{2,}/g, '.');
  name = name.replace(/^[\s.]+/, '').replace(/[\s.]+$/, '');
  if (WINDOWS_DEVICE.test(name)) name = `_${name}`;
  if (name === '') return 'document';
  const characters = [...name];
  if (characters.length > MAX_FILENAME_CHARACTERS || Buffer.byteLength(name) > MAX_FILENAME_BYTES) {
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    const stem = extension ? name.slice(0, dot) : name;
    const room = MAX_FILENAME_BYTES - Buffer.byteLength(extension);
    name = `${truncateUtf8([...stem].slice(0, MAX_FILENAME_CHARACTERS - extension.length).join(''), room).replace(/[\s.]+$/, '')}${extension}`;
  }
  return name;
}

/** The original name as kept: controls removed (it is shown back), bounded. */
export function keptOriginalName(original: string): string {
  const cleaned = original.replace(INVISIBLE, '').trim();
  const bounded = [...cleaned].slice(0, MAX_ORIGINAL_FILENAME_CHARACTERS).join('');
  return bounded === '' ? 'document' : bounded;
}

/**
 * `Content-Disposition: attachment` for a safe name: an ASCII fallback in `filename` (quotes and
 * backslashes cannot occur, non-ASCII becomes `_`) and the exact name in RFC 5987's `filename*`.
 */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
