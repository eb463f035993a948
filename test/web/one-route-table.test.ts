import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web UI writes no address of the API by hand: every request goes to an address the client
 * builds from the route table, src/contracts/api-routes.ts (docs/decisions/0113-one-route-table.md).
 * A page with a path of its own could ask for a route the service no longer has, or for another
 * route than the one it means, and nothing would say so until someone used it. The client module
 * is the one exception: it tells the sign-in routes apart, whose 401 is no ended session.
 */

const root = path.resolve(import.meta.dirname, '../..');
const CLIENT = 'src/web/api/client.ts';

/** The source files of the web UI, tests left out (they assert the addresses sent). */
function webSources(): string[] {
  const base = path.join(root, 'src/web');
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.'),
    )
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/**
 * A string or template literal that starts with an API path: a quote or backtick, then `/api`
 * followed by a slash, a query or the literal's end. `/api-reference`, a page of the UI, is not.
 */
const API_LITERAL = /['"`]\/api(?=[/?'"`])/;

function offences(file: string): string[] {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  return lines.flatMap((line, index) =>
    API_LITERAL.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
  );
}

describe('one route table', () => {
  it('the scan finds the ways the web UI wrote paths by hand', () => {
    const had = [
      "queryFn: () => api(overviewView, 'GET', '/api/overview'),",
      "await api(noAnswer, 'DELETE', `/api/members/` + member.id);",
      'path="/api/users"',
      "const PATH = '/api/tenant/ai-settings';",
      'href={`/api/members/export.csv`}',
      'fetch("/api?x=1")',
    ];
    for (const line of had) expect(API_LITERAL.test(line), line).toBe(true);
    for (const line of [
      "page('/api-reference', () => import('./api-reference/ApiReferencePage'))",
      'await api(apiRoutes.members.get, { params: { id } });',
      '/** The filters of `GET /api/audit`. */',
    ]) {
      expect(API_LITERAL.test(line), line).toBe(false);
    }
  });

  it('no source of the web UI but the client writes an /api path', () => {
    const sources = webSources();
    expect(sources).toContain(CLIENT);
    const found = sources.filter((file) => file !== CLIENT).flatMap(offences);
    expect(found).toEqual([]);
  });

  it('the client writes only the prefix of the sign-in routes', () => {
    expect(offences(CLIENT).map((line) => line.replace(/^[^:]+:\d+: /, ''))).toEqual([
      "if (status === 401 && !path.startsWith('/api/auth/')) onSessionEnded();",
    ]);
  });
});
