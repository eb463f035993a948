import { isAscii, isUtf8 } from 'node:buffer';
import {
  encodingDecidedAt,
  firstNonAscii,
  type UploadEncoding,
  utf8Length,
  wholeUtf8CharacterAt,
} from '../../../contracts/upload-encoding.js';

/**
 * An upload's bytes as text, as they arrive (docs/imports.md, "The file"): UTF-8 or
 * Windows-1252, by the rule of `contracts/upload-encoding.ts`. In a file found to be UTF-8, a
 * later byte that is not is a fault, found at its place; a file that starts with a UTF-16
 * byte-order mark is refused at once.
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

/** What a person is told of a fault found on `line`: UTF-16 is the whole file's, the rest a line's. */
export function textFaultMessage(fault: TextFault, line: number): string {
  return fault.message === TEXT_FAULTS.utf16 ? fault.message : `Line ${line} ${fault.message}`;
}

/** Where a character cut off by the end of `bytes` starts; `bytes.length` when none is. */
function wholeLength(bytes: Buffer): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back += 1) {
    const byte = bytes[bytes.length - back] as number;
    if (byte < 0x80) return bytes.length;
    if (byte >= 0xc0) {
      return wholeUtf8CharacterAt(bytes, bytes.length - back) === null
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
    if (wholeUtf8CharacterAt(bytes, at) !== true) return at;
    at += utf8Length(bytes[at] as number);
  }
  return bytes.length;
}

export class UploadText {
  private encoding: UploadEncoding | 'undecided' = 'undecided';
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
    if (!this.started) {
      // The byte-order mark's two bytes may come in two pieces.
      if (bytes.length < 2) {
        this.held = Buffer.from(bytes);
        return '';
      }
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
      const at = firstNonAscii(bytes);
      const decided = encodingDecidedAt(bytes, at);
      if (decided === null && !last) {
        this.held = Buffer.from(bytes.subarray(at));
        return bytes.toString('latin1', 0, at);
      }
      // A character cut off by the end of the file is no UTF-8.
      this.encoding = decided ?? 'windows-1252';
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
