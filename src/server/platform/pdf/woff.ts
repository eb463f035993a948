import { inflateSync } from 'node:zlib';

/** WOFF 1.0's signature, 'wOFF' (W3C WOFF File Format 1.0, section 3). */
const WOFF_SIGNATURE = 0x774f4646;
const WOFF_HEADER_BYTES = 44;
const WOFF_ENTRY_BYTES = 20;
const SFNT_HEADER_BYTES = 12;
const SFNT_RECORD_BYTES = 16;

const padded = (length: number) => (length + 3) & ~3;

/**
 * The TrueType (sfnt) font a WOFF 1.0 file wraps: each table inflated once and laid out as the
 * OpenType table directory asks (records sorted by tag, tables on 4-byte boundaries). fontkit reads
 * a WOFF file's tables by inflating them again on every read, the whole glyph table for each glyph
 * it measures or embeds, which made a statement's PDF take most of a second
 * (docs/decisions/0141-pension-benefit-statements.md, "Speed"); from the sfnt it reads them in
 * place. The tables' bytes are the font's own, so what is embedded is the same.
 */
export function sfntFromWoff(woff: Buffer): Buffer {
  if (woff.length < WOFF_HEADER_BYTES || woff.readUInt32BE(0) !== WOFF_SIGNATURE) {
    throw new Error('not a WOFF 1.0 font');
  }
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const at = WOFF_HEADER_BYTES + index * WOFF_ENTRY_BYTES;
    const tag = woff.readUInt32BE(at);
    const offset = woff.readUInt32BE(at + 4);
    const compressed = woff.readUInt32BE(at + 8);
    const length = woff.readUInt32BE(at + 12);
    const checksum = woff.readUInt32BE(at + 16);
    const stored = woff.subarray(offset, offset + compressed);
    const bytes = compressed < length ? inflateSync(stored) : stored;
    if (bytes.length !== length) throw new Error('a WOFF table is not the length it declares');
    return { tag, checksum, bytes };
  }).sort((a, b) => a.tag - b.tag);

  let largest = 1;
  while (largest * 2 <= count) largest *= 2;
  const directory = SFNT_HEADER_BYTES + count * SFNT_RECORD_BYTES;
  const size = tables.reduce((total, table) => total + padded(table.bytes.length), directory);
  const sfnt = Buffer.alloc(size);
  sfnt.writeUInt32BE(flavor, 0);
  sfnt.writeUInt16BE(count, 4);
  sfnt.writeUInt16BE(largest * 16, 6);
  sfnt.writeUInt16BE(Math.log2(largest), 8);
  sfnt.writeUInt16BE(count * 16 - largest * 16, 10);
  let offset = directory;
  tables.forEach((table, index) => {
    const record = SFNT_HEADER_BYTES + index * SFNT_RECORD_BYTES;
    sfnt.writeUInt32BE(table.tag, record);
    sfnt.writeUInt32BE(table.checksum, record + 4);
    sfnt.writeUInt32BE(offset, record + 8);
    sfnt.writeUInt32BE(table.bytes.length, record + 12);
    table.bytes.copy(sfnt, offset);
    offset += padded(table.bytes.length);
  });
  return sfnt;
}
