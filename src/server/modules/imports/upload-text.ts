import { isAscii, isUtf8 } from 'node:buffer';

/**
 * An upload's bytes as text (docs/imports.md, "The file"). UTF-8, or Windows-1252: Excel on
 * Windows saves "CSV (Comma delimited)" in Windows-1252, and read as UTF-8 every fada in such a
 * file (Seán, Ó Briain) would arrive as U+FFFD, which no field rule refuses. The two encodings
 * read ASCII alike, so the first byte outside ASCII decides: the start of a UTF-8 character makes
 * the file UTF-8, anything else Windows-1252, where every byte is a character. In a file found
 * to be UTF-8, a later byte that is not is a fault, found at its place; a file that starts with
 * a UTF-16 byte-order mark is refused at once.
 */
export const TEXT_FAULTS = {
  notUtf8:
    'is not UTF-8 text, though the lines before it are: save the file again as "CSV UTF-8 (Comma delimited)"',
  utf16: 'The file is UTF-16 text: save it again as "CSV UTF-8 (Comma delimited)"',
} as const;

export interface TextFault {
  /** Where the fault stands in the text of the piece it was found in: characters before it. */
  at: number;
  message: (typeof TEXT_FAULTS)[keyof typeof TEXT_FAULTS];
}

/** How many bytes the UTF-8 character starting with `lead` has; 0 when `lead` cannot start one. */
function utf8Length(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Whether `bytes[at…]` holds a whole UTF-8 character (Unicode's table 3-7); null if cut short. */
function wholeCharacterAt(bytes: Buffer, at: number): boolean | null {
  const length = utf8Length(bytes[at] as number);
  if (length === 0) return false;
  for (let next = 1; next < length; next += 1) {
    if (at + next >= bytes.length) return null;
    const byte = bytes[at + next] as number;
    let low = 0x80;
    let high = 0xbf;
    if (next === 1) {
      const lead = bytes[at] as number;
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
      else if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    }
    if (byte < low || byte > high) return false;
  }
  return true;
}

/** Where a character cut off by the end of `bytes` starts; `bytes.length` when none is. */
function wholeLength(bytes: Buffer): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back += 1) {
    const byte = bytes[bytes.length - back] as number;
    if (byte < 0x80) return bytes.length;
    if (byte >= 0xc0) {
      return wholeCharacterAt(bytes, bytes.length - back) === null
        ? bytes.length - back
        : bytes.length;
    }
  }
  return bytes.length;
}

/** The first byte of `bytes` that is not part of a UTF-8 character. */
function firstNotUtf8(bytes: Buffer): number {
  let at = 0;
  while (at < bytes.length) {
    if (wholeCharacterAt(bytes, at) !== true) return at;
    at += utf8Length(bytes[at] as number);
  }
  return bytes.length;
}

export class UploadText {
  private encoding: 'undecided' | 'utf-8' | 'windows-1252' = 'undecided';
  /** The start of a character whose last bytes are in the next piece. */
  private held: Buffer = Buffer.alloc(0);
  private started = false;
  private readonly windows1252 = new TextDecoder('windows-1252');
  /**
   * The first fault, set by the `write` or `end` that found it. The text goes on being read, so
   * that the rows after it are checked too.
   */
  fault: TextFault | null = null;

  /** The text of the next piece of the upload. */
  write(piece: Buffer): string {
    const bytes = this.held.length > 0 ? Buffer.concat([this.held, piece]) : piece;
    this.held = Buffer.alloc(0);
    if (!this.started && bytes.length >= 2) {
      this.started = true;
      if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
        this.fault = { at: 0, message: TEXT_FAULTS.utf16 };
      }
    }
    return this.decode(bytes, false);
  }

  /** The end of the upload: whatever was held back. */
  end(): string {
    const bytes = this.held;
    this.held = Buffer.alloc(0);
    return this.decode(bytes, true);
  }

  private decode(bytes: Buffer, last: boolean): string {
    if (this.encoding === 'undecided') {
      if (isAscii(bytes)) return bytes.toString('latin1');
      let at = 0;
      while ((bytes[at] as number) < 0x80) at += 1;
      const whole = wholeCharacterAt(bytes, at);
      if (whole === null && !last) {
        this.held = Buffer.from(bytes.subarray(at));
        return bytes.toString('latin1', 0, at);
      }
      this.encoding = whole === true ? 'utf-8' : 'windows-1252';
    }
    if (this.encoding === 'windows-1252') return this.windows1252.decode(bytes);
    const cut = last ? bytes.length : wholeLength(bytes);
    if (cut < bytes.length) this.held = Buffer.from(bytes.subarray(cut));
    const complete = bytes.subarray(0, cut);
    if (this.fault === null && !isUtf8(complete)) {
      const bad = firstNotUtf8(complete);
      this.fault = { at: complete.toString('utf8', 0, bad).length, message: TEXT_FAULTS.notUtf8 };
    }
    // A byte that is no character reads as U+FFFD; the fault above refuses the file.
    return complete.toString('utf8');
  }
}
