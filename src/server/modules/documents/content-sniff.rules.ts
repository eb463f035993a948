import { open } from 'node:fs/promises';
import { DOCUMENT_CONTENT_TYPES, type DocumentContentType } from '../../../contracts/documents.js';

/**
 * What a file is, judged by its bytes (docs/decisions/0062-document-vault.md): never by its name or the type the browser
 * claimed, either of which the uploader chooses. PDF, PNG and JPEG by their signatures; a DOCX is
 * a ZIP archive, told from any other ZIP (an .xlsx, a .jar) by its central directory naming
 * `[Content_Types].xml` and the `word/` part that holds the document.
 */

/** Bytes the head must hold to be judged. */
export const SNIFF_BYTES = 8;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PDF = Buffer.from('%PDF-', 'latin1');
const ZIP_LOCAL_FILE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export type HeadKind = 'pdf' | 'png' | 'jpeg' | 'zip';

export function sniffHead(head: Buffer): HeadKind | null {
  const startsWith = (signature: Buffer) =>
    head.length >= signature.length && head.subarray(0, signature.length).equals(signature);
  if (startsWith(PDF)) return 'pdf';
  if (startsWith(PNG)) return 'png';
  if (startsWith(JPEG)) return 'jpeg';
  if (startsWith(ZIP_LOCAL_FILE)) return 'zip';
  return null;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const MAX_TAIL = 22 + 0xffff;
/** A Word document's directory is a few kilobytes; a larger one is not read. */
const MAX_CENTRAL_DIRECTORY = 4 * 1024 * 1024;

/** The names in a ZIP file's central directory, or null when it has none that can be read. */
export async function zipEntryNames(file: string): Promise<string[] | null> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, MAX_TAIL);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let at = tailLength - 22; at >= 0; at -= 1) {
      if (tail.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
        end = at;
        break;
      }
    }
    if (end === -1) return null;
    const entries = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    // ZIP64 markers, or a directory that does not fit inside the file: not a document of ours.
    if (
      entries === 0xffff ||
      directorySize > MAX_CENTRAL_DIRECTORY ||
      directoryOffset + directorySize > size
    ) {
      return null;
    }
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    const names: string[] = [];
    let at = 0;
    for (let index = 0; index < entries; index += 1) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) {
        return null;
      }
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      if (at + 46 + nameLength > directory.length) return null;
      names.push(directory.toString('utf8', at + 46, at + 46 + nameLength));
      at += 46 + nameLength + extraLength + commentLength;
    }
    return names;
  } finally {
    await handle.close();
  }
}

/** The content type of a stored upload, or null when it is none of the accepted kinds. */
export async function contentTypeOf(
  head: HeadKind | null,
  file: string,
): Promise<DocumentContentType | null> {
  switch (head) {
    case 'pdf':
      return DOCUMENT_CONTENT_TYPES.pdf;
    case 'png':
      return DOCUMENT_CONTENT_TYPES.png;
    case 'jpeg':
      return DOCUMENT_CONTENT_TYPES.jpeg;
    case 'zip': {
      const names = await zipEntryNames(file);
      const isDocx =
        names?.includes('[Content_Types].xml') && names.some((name) => name.startsWith('word/'));
      return isDocx ? DOCUMENT_CONTENT_TYPES.docx : null;
    }
    default:
      return null;
  }
}
