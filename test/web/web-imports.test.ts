import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The browser's code reaches the server only through the API and shares its rules through
 * src/contracts (docs/decisions/0117-layers-and-module-faces.md). The dependency checker in
 * `npm run lint` does not read TSX, so this holds the web to that: every relative import in
 * src/web resolves inside src/web or src/contracts.
 */

const root = path.resolve(import.meta.dirname, '../..');
const web = path.join(root, 'src/web');
const ALLOWED = [web, path.join(root, 'src/contracts')];

/** `from '…'`, `import '…'` and `import('…')` with a relative specifier. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;

function relativeImports(text: string): string[] {
  return [...text.matchAll(RELATIVE_IMPORT)].map((match) => match[2] as string);
}

function webSources(): Array<{ file: string; text: string }> {
  return readdirSync(web, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return { file: full, text: readFileSync(full, 'utf8') };
    });
}

describe('the web imports only itself and src/contracts', () => {
  it('finds the imports it checks, in every form they are written', () => {
    expect(
      relativeImports(
        "import { a } from '../../contracts/money.js';\nimport './x.css';\nconst p = import('../server/app.js');",
      ),
    ).toEqual(['../../contracts/money.js', './x.css', '../server/app.js']);
  });

  it('has no relative import that leaves src/web and src/contracts', () => {
    const outside = webSources().flatMap(({ file, text }) =>
      relativeImports(text)
        .map((specifier) => path.resolve(path.dirname(file), specifier))
        .filter((target) => !ALLOWED.some((dir) => target.startsWith(`${dir}${path.sep}`)))
        .map((target) => `${path.relative(root, file)} → ${path.relative(root, target)}`),
    );
    expect(outside).toEqual([]);
  });
});
