import { counted } from './plain-english.js';

/**
 * A file's size as people read it, the one way every page and message writes one, the limits
 * included: bytes below a kilobyte, whole KB below a megabyte, MB to one decimal above, a KB being
 * 1,024 bytes as file managers count them ("25 MB" is MAX_IMPORT_BYTES). A page once said
 * "25 MiB" where another said "25 MB" of the same limit.
 */
export function fileSizeInWords(bytes: number): string {
  if (bytes < 1024) return counted(bytes, 'byte');
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024).toLocaleString('en-IE')} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString('en-IE', { maximumFractionDigits: 1 })} MB`;
}

/**
 * A file's size beside the limit it is over: its size, or "over" the limit where the two would
 * read the same ("over 25 MB", not "25 MB" of a file a byte too large).
 */
export function sizeOverLimit(bytes: number, limit: number): string {
  const size = fileSizeInWords(bytes);
  const most = fileSizeInWords(limit);
  return size === most ? `over ${most}` : size;
}
