import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';
import { permits, scopeFor } from '../../src/contracts/permits.js';
import { ACTIONS, type Action, POLICY, ruleOf } from '../../src/contracts/policy.js';
import { ROLES } from '../../src/contracts/roles.js';
import { authorize, ForbiddenError } from '../../src/server/platform/tenancy/authorize.js';
import { platformActor, tenantActor } from '../helpers/actors.js';

/**
 * The authorisation policy (docs/decisions/0055-authorisation-policy-table.md): deny by default, and asked
 * first by every service method.
 */

const SERVER = path.resolve(import.meta.dirname, '../../src/server');

/** The TypeScript sources under a directory, tests left out. */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts'),
    )
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The part of Babel's syntax tree the authorise-first check reads. */
interface SyntaxNode {
  type: string;
  name?: string;
  key?: SyntaxNode;
  id?: SyntaxNode;
  params?: SyntaxNode[];
  typeAnnotation?: SyntaxNode;
  typeName?: SyntaxNode;
  body?: SyntaxNode & { body?: SyntaxNode[] };
  expression?: SyntaxNode;
  declarations?: Array<{ init?: SyntaxNode }>;
  init?: SyntaxNode;
  callee?: SyntaxNode;
  arguments?: SyntaxNode[];
}

/** The name of a function's first parameter when it is typed `ActorContext`. */
function actorParameter(node: SyntaxNode): string | undefined {
  const first = node.params?.[0];
  const annotation = first?.typeAnnotation?.typeAnnotation;
  return first?.type === 'Identifier' &&
    annotation?.type === 'TSTypeReference' &&
    annotation.typeName?.name === 'ActorContext'
    ? first.name
    : undefined;
}

const subjects = {
  SuperAdmin: { role: 'SuperAdmin', tenantId: null, employerId: null, memberId: null },
  BrokerAdmin: { role: 'BrokerAdmin', tenantId: 't', employerId: null, memberId: null },
  BrokerUser: { role: 'BrokerUser', tenantId: 't', employerId: null, memberId: null },
  EmployerAdmin: { role: 'EmployerAdmin', tenantId: 't', employerId: 'e', memberId: null },
  EmployerUser: { role: 'EmployerUser', tenantId: 't', employerId: 'e', memberId: null },
  Member: { role: 'Member', tenantId: 't', employerId: 'e', memberId: 'm' },
} as const;

describe('the policy table', () => {
  it('refuses every role an action it does not hold', () => {
    for (const name of ['scheme.approve', 'constructor', 'toString', '__proto__', '']) {
      expect(ruleOf(name)).toBeUndefined();
      for (const role of ROLES) expect(scopeFor(subjects[role], name), name).toBeNull();
    }
    expect(() => authorize(tenantActor('t'), 'scheme.approve' as Action)).toThrow(ForbiddenError);
    expect(() => authorize(platformActor(), 'scheme.approve' as Action)).toThrow(ForbiddenError);
  });

  it('refuses a role not listed for an action, and allows one that is', () => {
    for (const action of ACTIONS) {
      for (const role of ROLES) {
        const listed = Object.hasOwn(POLICY[action].roles, role);
        expect(permits(subjects[role], action), `${role} ${action}`).toBe(listed);
      }
    }
  });

  it('reaches nothing for an account without what its scope is anchored to', () => {
    const withoutEmployer = { ...subjects.EmployerAdmin, employerId: null };
    const withoutMember = { ...subjects.Member, memberId: null };
    expect(scopeFor(withoutEmployer, 'scheme.read')).toBeNull();
    expect(scopeFor(withoutMember, 'member.read')).toBeNull();
  });

  it('lets a member make and list their own data-subject requests, and employers neither', () => {
    const mine = { brokerId: 't', employerId: 'e', memberId: 'm' };
    const another = { brokerId: 't', employerId: 'e', memberId: 'n' };
    expect(scopeFor(subjects.Member, 'data_request.create')).toBe('member');
    expect(permits(subjects.Member, 'data_request.create', mine)).toBe(true);
    expect(permits(subjects.Member, 'data_request.create', another)).toBe(false);
    expect(scopeFor(subjects.Member, 'data_request.list')).toBe('member');
    for (const action of ['data_request.read', 'data_request.complete'] as const) {
      expect(scopeFor(subjects.Member, action), action).toBeNull();
    }
    for (const role of ['EmployerAdmin', 'EmployerUser'] as const) {
      expect(scopeFor(subjects[role], 'data_request.create'), role).toBeNull();
      expect(scopeFor(subjects[role], 'data_request.list'), role).toBeNull();
    }
  });

  it('holds only actions some part of the server asks for', () => {
    const server = sourceFiles(SERVER)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = ACTIONS.filter((action) => !server.includes(`'${action}'`));
    expect(unused).toEqual([]);
  });
});

describe('every service method', () => {
  /**
   * A method or function whose first parameter is the actor (architecture: a service takes
   * ActorContext first) must begin with `authorize(actor, …)`, alone or assigned.
   */
  it('asks the policy before anything else', () => {
    const services = sourceFiles(SERVER).filter(
      (file) => file.endsWith('.service.ts') && readFileSync(file, 'utf8').includes('ActorContext'),
    );
    expect(services.length).toBeGreaterThan(10);
    const checked: string[] = [];
    const missing: string[] = [];
    for (const file of services) {
      // TypeScript 7, the compiler the project builds with, offers no JavaScript API: Babel's
      // parser reads the syntax tree instead, types included.
      const source = parse(readFileSync(file, 'utf8'), {
        sourceType: 'module',
        plugins: ['typescript'],
      });
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) {
          for (const child of node) visit(child);
          return;
        }
        if (node === null || typeof node !== 'object') return;
        const current = node as SyntaxNode;
        if (
          ['ObjectMethod', 'ClassMethod', 'FunctionDeclaration'].includes(current.type) &&
          current.body?.type === 'BlockStatement' &&
          actorParameter(current) !== undefined
        ) {
          const parameter = actorParameter(current);
          const name = `${path.relative(SERVER, file)} ${current.key?.name ?? current.id?.name}`;
          checked.push(name);
          const first = current.body.body?.[0];
          const call =
            first?.type === 'ExpressionStatement'
              ? first.expression
              : first?.type === 'VariableDeclaration'
                ? first.declarations?.[0]?.init
                : undefined;
          const asks =
            call?.type === 'CallExpression' &&
            call.callee?.type === 'Identifier' &&
            call.callee.name === 'authorize' &&
            call.arguments?.[0]?.type === 'Identifier' &&
            call.arguments[0].name === parameter;
          if (!asks) missing.push(name);
        }
        for (const [key, child] of Object.entries(current)) {
          if (key !== 'loc' && key !== 'start' && key !== 'end') visit(child);
        }
      };
      visit(source.program);
    }
    expect(checked.length).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });
});

describe('the web UI', () => {
  it('decides nothing on the signed-in person’s role itself: it asks the policy table', () => {
    const web = path.resolve(SERVER, '../web');
    const deciding = sourceFiles(web)
      .filter((file) => /\buser\.role\b/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(web, file));
    expect(deciding).toEqual([path.join('auth', 'can.ts')]);
  });
});
