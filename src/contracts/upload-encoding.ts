/**
 * Which text encoding an uploaded CSV file is in (docs/decisions/0078-upload-text-encoding.md):
 * the service reads the file by this rule as it arrives, and the web's preview
 * reads the file's first bytes by it too, so that both show a person the same names. UTF-8 and
 * Windows-1252 read ASCII alike; the first byte outside ASCII decides: the start of a whole
 * UTF-8 character makes the file UTF-8, anything else Windows-1252.
 */
export type UploadEncoding = 'utf-8' | 'windows-1252';

/** How many bytes the UTF-8 character starting with `lead` has; 0 when `lead` cannot start one. */
export function utf8Length(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * Whether `bytes[at…]` holds a whole UTF-8 character, by the Unicode Standard's table of
 * well-formed byte sequences (no overlong forms, surrogates or code points past U+10FFFF); null
 * when the bytes end before it does.
 */
export function wholeUtf8CharacterAt(bytes: Uint8Array, at: number): boolean | null {
  const lead = bytes[at] as number;
  const length = utf8Length(lead);
  if (length === 0) return false;
  for (let next = 1; next < length; next += 1) {
    if (at + next >= bytes.length) return null;
    const byte = bytes[at + next] as number;
    let low = 0x80;
    let high = 0xbf;
    if (next === 1) {
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
      else if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    }
    if (byte < low || byte > high) return false;
  }
  return true;
}

/**
 * The encoding the byte at `at`, the file's first outside ASCII, decides; null when the character
 * it starts is cut off by the end of `bytes`, so that the next bytes must decide.
 */
export function encodingDecidedAt(bytes: Uint8Array, at: number): UploadEncoding | null {
  const whole = wholeUtf8CharacterAt(bytes, at);
  return whole === null ? null : whole ? 'utf-8' : 'windows-1252';
}

/** Where the first byte outside ASCII of `bytes` is; `bytes.length` when there is none. */
export function firstNonAscii(bytes: Uint8Array): number {
  let at = 0;
  while (at < bytes.length && (bytes[at] as number) < 0x80) at += 1;
  return at;
}
