import { describe, expect, it } from 'vitest';
import { listApiRoutes } from '../../src/contracts/api-routes.js';
import { AUDIT_ACTION_TEXT, AUDIT_RECORD_TYPES } from '../../src/contracts/audit-text.js';
import { MODULES } from '../../src/contracts/manifests/index.js';

/**
 * The modules' manifests (docs/decisions/0121-module-manifests.md) are put together into the route
 * table and the audit log's words by merging objects, where a name declared twice would quietly
 * keep only one of them. Each name is declared by one module only.
 */
const repeated = (names: string[]) => names.filter((name, index) => names.indexOf(name) !== index);

describe('the module manifests', () => {
  it('name each module once', () => {
    expect(repeated(MODULES.map((module) => module.name))).toEqual([]);
  });

  it('name each route group once, and the route table holds every route of every manifest', () => {
    const groups = MODULES.flatMap((module) => Object.keys(module.routes));
    expect(repeated(groups)).toEqual([]);
    const declared = MODULES.flatMap((module) =>
      Object.values(module.routes).flatMap((group) => Object.values(group)),
    );
    expect(listApiRoutes().map(({ route }) => route)).toEqual(declared);
  });

  it('give the words of each kind of record and each audited action once', () => {
    const records = MODULES.flatMap((module) =>
      'audit' in module ? Object.keys(module.audit.records ?? {}) : [],
    );
    // Words of actions recorded now, and of those recorded once (`retired`), each given once.
    const actions = MODULES.flatMap((module) =>
      'audit' in module
        ? [
            ...Object.keys(module.audit.actions ?? {}),
            ...Object.keys('retired' in module.audit ? module.audit.retired : {}),
          ]
        : [],
    );
    expect(repeated(records)).toEqual([]);
    expect(repeated(actions)).toEqual([]);
    expect(AUDIT_RECORD_TYPES).toEqual(records);
    expect(Object.keys(AUDIT_ACTION_TEXT).sort()).toEqual([...actions].sort());
    expect(actions.length).toBeGreaterThan(80);
  });
});
