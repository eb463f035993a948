import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The TypeScript source files under a folder of the repository, their tests left out, each with
 * its text and its path from `relativeTo` (the folder itself unless said): what the scans of the
 * web UI and the server read, to keep a second way of doing what one rule does from growing back.
 */
export function sourceFiles(
  folder: string,
  relativeTo: string = folder,
): Array<{ file: string; text: string }> {
  const from = path.join(root, relativeTo);
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.'),
    )
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return { file: path.relative(from, full), text: readFileSync(full, 'utf8') };
    });
}
