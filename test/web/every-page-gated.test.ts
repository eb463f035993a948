import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Which reaches a signed-in page is for is said in one place, PAGES in src/web/layout/pages.ts,
 * and each page states it by its AccessGate; a page without one showed a firm's records to the
 * platform by address (docs/decisions/0153-firm-records-not-the-platforms-pages.md). Every page
 * the router loads opens behind the gate of its PAGES entry.
 */
const WEB = resolve(import.meta.dirname, '../../src/web');

/** Each lazily loaded page of the router: its address and the module it comes from. */
function routedPages(): Array<{ path: string; module: string; name: string }> {
  const router = readFileSync(resolve(WEB, 'router.tsx'), 'utf8');
  const found = router.matchAll(
    /page\(\s*'([^']+)',\s*\(\) => import\('\.\/([^']+)'\),\s*'(\w+)',?\s*\)/g,
  );
  return [...found].map(([, path = '', module = '', name = '']) => ({ path, module, name }));
}

describe('the pages behind sign-in', () => {
  it('are all found in the router', () => {
    const paths = routedPages().map((page) => page.path);
    expect(paths).toContain('/members/$memberId');
    expect(paths).toContain('/statement-runs/$runId');
    expect(paths.length).toBeGreaterThan(25);
  });

  it('each open behind the gate of their PAGES entry', () => {
    const ungated = routedPages().filter(({ module, name }) => {
      const source = readFileSync(resolve(WEB, `${module}.tsx`), 'utf8');
      const page = new RegExp(
        `export function ${name}\\(\\) \\{\\s*return \\(\\s*<AccessGate access=\\{PAGES\\.\\w+\\}>`,
      );
      return !page.test(source);
    });
    expect(ungated.map((page) => page.path)).toEqual([]);
  });
});
