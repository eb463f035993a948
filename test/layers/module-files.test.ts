import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A module's files are named `<subject>.<role>.ts`, so that what a file holds is read from its
 * name (docs/decisions/0117-layers-and-module-faces.md), and no two files of the server share a
 * name: a name is enough to find the file a comment cites.
 */

const server = path.resolve(import.meta.dirname, '../../src/server');
const modules = path.join(server, 'modules');

/**
 * The roles: module (the module composed: its services made, its routes wired), routes (HTTP),
 * schemas (the API's Zod shapes), service (use cases, authorised first), data (queries and other
 * reads and writes), job (a scheduled job), pdf (a document rendered), rules (logic over values,
 * no database), plugin (a Fastify hook), client (an outside service), cli (a command).
 */
const MODULE_FILE =
  /^[a-z0-9]+(?:-[a-z0-9]+)*\.(module|routes|schemas|service|data|job|pdf|rules|plugin|client|cli)(?:\.test)?\.ts$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(server, path.join(entry.parentPath, entry.name)));
}

describe('module file names', () => {
  it('tells a named file from a misnamed one', () => {
    expect(MODULE_FILE.test('members.service.ts')).toBe(true);
    expect(MODULE_FILE.test('pay-lines.rules.test.ts')).toBe(true);
    expect(MODULE_FILE.test('guard.ts')).toBe(false);
    expect(MODULE_FILE.test('members.helpers.ts')).toBe(false);
  });

  it('names every file of a module by its subject and role, its index.ts aside', () => {
    const misnamed = filesUnder(modules)
      .filter((file) => path.basename(file) !== 'index.ts')
      .filter((file) => !MODULE_FILE.test(path.basename(file)));
    expect(misnamed).toEqual([]);
  });

  it('keeps the database out of a rules file: a rule is logic over values', () => {
    const reachesTheDatabase = filesUnder(modules)
      .filter((file) => file.endsWith('.rules.ts'))
      .filter((file) =>
        /from '[./]*platform\/db\//.test(readFileSync(path.join(server, file), 'utf8')),
      );
    expect(reachesTheDatabase).toEqual([]);
  });

  it('gives every module an index.ts, its one face', () => {
    const folders = readdirSync(modules, { withFileTypes: true }).filter((entry) =>
      entry.isDirectory(),
    );
    const faceless = folders
      .map((folder) => folder.name)
      .filter((name) => !filesUnder(path.join(modules, name)).some((f) => f.endsWith('index.ts')));
    expect(folders.length).toBeGreaterThan(10);
    expect(faceless).toEqual([]);
  });

  it('has no two server files of one name', () => {
    const byName = new Map<string, string[]>();
    for (const file of filesUnder(server)) {
      const name = path.basename(file);
      if (name === 'index.ts') continue;
      byName.set(name, [...(byName.get(name) ?? []), file]);
    }
    const shared = [...byName.values()].filter((files) => files.length > 1);
    expect(shared).toEqual([]);
  });
});
