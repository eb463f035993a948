import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Which reaches a signed-in page is for is said in one place, PAGES in src/web/layout/pages.ts,
 * and the gate that applies it is put on in one place: the router wraps each page it loads in the
 * AccessGate of its PAGES entry. A page without one showed a firm's records to the platform by
 * address (docs/decisions/0153-firm-records-not-the-platforms-pages.md). src/web/router.test.ts
 * renders each routed page to a session no entry allows; this reads the router's source, so a
 * page routed past `page()` or with a gate of its own is found before any page is rendered.
 */
const WEB = resolve(import.meta.dirname, '../../src/web');

/** Each lazily loaded page of the router: its address and what its gate is given. */
function routedPages(): Array<{ path: string; access: string }> {
  const router = readFileSync(resolve(WEB, 'router.tsx'), 'utf8');
  const found = router.matchAll(/\bpage\(\s*'([^']+)',\s*([^,]+),\s*\(\) => import\(/g);
  return [...found].map(([, path = '', access = '']) => ({ path, access }));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the router source', () => {
  it('names every page behind sign-in, so the checks below are not vacuous', () => {
    const paths = routedPages().map((page) => page.path);
    expect(paths).toContain('/members/$memberId');
    expect(paths).toContain('/statement-runs/$runId');
    expect(paths.length).toBeGreaterThan(25);
  });

  it('routes each page through page() with the gate of a PAGES entry, and loads none lazily in another way', () => {
    const router = readFileSync(resolve(WEB, 'router.tsx'), 'utf8');
    expect(routedPages().filter(({ access }) => !/^PAGES\.\w+$/.test(access))).toEqual([]);
    expect(router.match(/\(\) => import\(/g)?.length).toBe(routedPages().length);
    expect(router.match(/lazyRouteComponent\(/g)?.length).toBe(1);
  });

  it('holds every gate: no page module wraps itself in one', () => {
    const selfGated = sourceFiles(WEB).filter((file) =>
      readFileSync(file, 'utf8').includes('<AccessGate access={PAGES.'),
    );
    expect(selfGated.map((file) => file.slice(WEB.length + 1))).toEqual([]);
  });
});
