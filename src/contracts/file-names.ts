/**
 * A name or title as a part of a download's file name: safe characters only, so the
 * Content-Disposition header carries it plainly and every file system takes it. Letters lose
 * their accents (`Ó Súilleabháin` → `o-suilleabhain`), anything but a letter or a figure becomes
 * one hyphen, at most `max` characters are kept, and a part with nothing left reads `fallback`.
 */
export function fileNamePart(text: string, fallback: string, max = 60): string {
  const part = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '');
  return part === '' ? fallback : part;
}
