import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from '@babel/parser';
import { getTableColumns, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { fieldInWords, isTechnicalField } from '../../src/contracts/audit-changes.js';
import {
  AUDIT_ACTION_TEXT,
  AUDIT_RECORD_TYPES,
  auditSummary,
  RECORDED_ACTIONS,
  recordTypeLabel,
} from '../../src/contracts/audit-text.js';
import { MODULES } from '../../src/contracts/manifests/index.js';
import { ACTIONS } from '../../src/contracts/policy.js';
import { NAMED_AS_THEY_ARE } from '../../src/server/modules/audit/audit-names.data.js';
import * as schema from '../../src/server/platform/db/schema.js';

/**
 * Every action the service records reads as words (docs/decisions/0051-readable-audit-log.md;
 * docs/decisions/0130-what-reads-are-audited.md). Three guards: the type of an audit record's
 * action is the union of the manifests' actions (a compile error elsewhere), the audit service
 * refuses an action without words at run time (test/db/audit.test.ts), and this file reads the
 * server's source: every action it names where it records one must have words, and every action
 * with words must still be recorded somewhere, or be retired.
 */

const SERVER = path.resolve(import.meta.dirname, '../../src/server');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'),
    )
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The part of Babel's syntax tree read here. */
interface Node {
  type: string;
  name?: string;
  value?: unknown;
  key?: Node;
  id?: Node;
  init?: Node;
  object?: Node;
  property?: Node;
  callee?: Node;
  arguments?: Node[];
  properties?: Node[];
  expression?: Node;
  consequent?: Node;
  alternate?: Node;
  quasis?: Array<{ value: { cooked: string } }>;
  typeAnnotation?: Node;
  types?: Node[];
  literal?: Node;
  loc?: { start: { line: number } };
}

const AUDIT_ACTION = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
const PERMIT_ACTIONS: ReadonlySet<string> = new Set(ACTIONS);

interface Found {
  /** An action as written, or a template with `*` for what it fills in. */
  action: string;
  where: string;
}

function actionsNamedIn(file: string): { found: Found[]; unread: string[] } {
  const program = parse(readFileSync(file, 'utf8'), {
    sourceType: 'module',
    plugins: ['typescript'],
  }).program as unknown as Node;
  const declared = new Map<string, Node>();
  /** A parameter typed as a union of literals: `action: 'a.b' | 'c.d'`. */
  const typed = new Map<string, Node>();
  const nodes: Node[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const current = node as Node;
    if (typeof current.type !== 'string') return;
    nodes.push(current);
    if (current.type === 'VariableDeclarator' && current.id?.name && current.init) {
      declared.set(current.id.name, current.init);
    }
    const union = current.typeAnnotation?.typeAnnotation;
    if (current.type === 'Identifier' && current.name && union?.type === 'TSUnionType') {
      typed.set(current.name, union);
    }
    for (const [key, child] of Object.entries(current)) {
      if (key !== 'loc' && key !== 'start' && key !== 'end') walk(child);
    }
  };
  walk(program);

  const found: Found[] = [];
  const unread: string[] = [];
  const at = (node: Node) => `${path.relative(SERVER, file)}:${node.loc?.start.line}`;
  /** What an expression giving an action can be: each literal, or a template. */
  const read = (node: Node | undefined, where: Node, suffix = ''): void => {
    if (!node) return;
    switch (node.type) {
      case 'StringLiteral':
        found.push({ action: `${node.value}${suffix}`, where: at(where) });
        return;
      case 'NullLiteral':
        return;
      case 'TemplateLiteral':
        found.push({
          action: `${(node.quasis ?? []).map((quasi) => quasi.value.cooked).join('*')}${suffix}`,
          where: at(where),
        });
        return;
      case 'ConditionalExpression':
        read(node.consequent, where, suffix);
        read(node.alternate, where, suffix);
        return;
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
        read(node.expression, where, suffix);
        return;
      case 'ObjectExpression':
        for (const property of node.properties ?? []) read(property.value as Node, where, suffix);
        return;
      case 'TSUnionType':
        for (const member of node.types ?? []) read(member.literal, where, suffix);
        return;
      case 'Identifier': {
        const init = declared.get(node.name ?? '') ?? typed.get(node.name ?? '');
        if (init) read(init, where, suffix);
        else unread.push(at(where));
        return;
      }
      case 'MemberExpression':
        // A step's `auditAction`, each read where the step is written (below); a register's
        // `entityType`, read where the register kit's `listUnder` is called.
        if (node.property?.name === 'auditAction' || node.property?.name === 'entityType') return;
        // `TABLE[key]`: every value of the table, declared in the same file.
        if (node.object?.type === 'Identifier') read(node.object, where, suffix);
        else unread.push(at(where));
        return;
      default:
        unread.push(at(where));
    }
  };
  const propertyOf = (object: Node | undefined, name: string) =>
    object?.type === 'ObjectExpression'
      ? object.properties?.find((property) => property.key?.name === name)
      : undefined;

  for (const node of nodes) {
    if (node.type === 'CallExpression' && node.callee?.type === 'MemberExpression') {
      const method = node.callee.property?.name;
      const argument = node.arguments?.at(-1);
      if (method === 'record' || method === 'softDelete') {
        const action = propertyOf(argument, 'action');
        if (action) read(action.value as Node, node);
      }
      // A platform read is recorded as `<entity type>.viewed` or `.listed` (platform-reads.ts),
      // a register's list through the register kit's `listUnder`.
      const verb = method === 'listUnder' ? 'listed' : method;
      if (verb === 'viewed' || verb === 'listed') {
        const entityType = propertyOf(argument, 'entityType');
        if (entityType) read(entityType.value as Node, node, `.${verb}`);
      }
    }
    // A step's action, recorded for it (ai/drafts.service.ts).
    if (node.type === 'ObjectProperty' && node.key?.name === 'auditAction') {
      read(node.value as Node, node);
    }
  }
  return {
    found: found.filter(
      ({ action }) =>
        !PERMIT_ACTIONS.has(action) && (AUDIT_ACTION.test(action) || action.includes('*')),
    ),
    unread,
  };
}

const named = sourceFiles(SERVER).map(actionsNamedIn);
const found = named.flatMap((file) => file.found);
const exact = found.filter(({ action }) => !action.includes('*'));
/** `import.*` and the like; `*.viewed` and `*.listed` are the platform reads, read at their callers. */
const templates = found
  .map(({ action }) => action)
  .filter((action) => action.includes('*') && !action.startsWith('*'));
const matches = (template: string, action: string) =>
  new RegExp(`^${template.replaceAll('.', '\\.').replaceAll('*', '[a-z0-9_]+')}$`).test(action);
const retired = new Set(
  MODULES.flatMap((module) =>
    'audit' in module && 'retired' in module.audit ? Object.keys(module.audit.retired) : [],
  ),
);

describe('the actions the service records', () => {
  it('are read from the server wherever it records one, none left unread', () => {
    expect(exact.length).toBeGreaterThan(100);
    expect(named.flatMap((file) => file.unread)).toEqual([]);
  });

  it('each have words in a manifest, and none is retired', () => {
    const withoutWords = exact.filter(({ action }) => !RECORDED_ACTIONS.has(action));
    expect(withoutWords).toEqual([]);
    for (const template of templates) {
      expect(
        [...RECORDED_ACTIONS].some((action) => matches(template, action)),
        template,
      ).toBe(true);
    }
    expect(exact.filter(({ action }) => retired.has(action))).toEqual([]);
  });

  it('are all still recorded: words of an action recorded no more move to `retired`', () => {
    const recorded = new Set(exact.map(({ action }) => action));
    const unused = [...RECORDED_ACTIONS].filter(
      (action) => !recorded.has(action) && !templates.some((template) => matches(template, action)),
    );
    expect(unused).toEqual([]);
  });

  it('read as words, each record type with its label, and one from a later version as a sentence naming it', () => {
    for (const [action, words] of Object.entries(AUDIT_ACTION_TEXT)) {
      expect(auditSummary(action, action.split('.')[0] as string)).toBe(words);
      expect(words, action).not.toMatch(/[a-z]+[._][a-z]+/);
    }
    expect(recordTypeLabel('payroll_upload')).toBe('Payroll upload');
    expect(auditSummary('pension_transfer.valued', 'pension_transfer')).toBe(
      'Recorded “pension_transfer.valued” on a record of type “pension transfer”',
    );
  });
});

/**
 * The record types the log names (src/server/modules/audit/audit-names.data.ts): those it reads a
 * table for (`nameEach('<type>', …)`, or `put('<type>', …)` for the people), and those named as
 * they are (`NAMED_AS_THEY_ARE`).
 */
function namedRecordTypes(): Set<string> {
  const file = path.join(SERVER, 'modules/audit/audit-names.data.ts');
  const program = parse(readFileSync(file, 'utf8'), {
    sourceType: 'module',
    plugins: ['typescript'],
  }).program as unknown as Node;
  const types = new Set<string>(Object.keys(NAMED_AS_THEY_ARE));
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const current = node as Node;
    const callee = current.callee?.name;
    const first = current.arguments?.[0];
    if (
      current.type === 'CallExpression' &&
      (callee === 'nameEach' || callee === 'put') &&
      first?.type === 'StringLiteral'
    ) {
      types.add(first.value as string);
    }
    for (const [key, child] of Object.entries(current)) {
      if (key !== 'loc' && key !== 'start' && key !== 'end') walk(child);
    }
  };
  walk(program);
  return types;
}

describe('the records the log names', () => {
  it('name every record type by what it is, never by its id (docs/decisions/0051-readable-audit-log.md)', () => {
    const named = namedRecordTypes();
    // A type the server records under an id of its own (`record`, `softDelete`, a platform
    // read's `viewed`); any other is recorded only as a list platform staff read, which reads as
    // that list ("A list of 3 records"), with no one record to name.
    const byId = new Set(
      sourceFiles(SERVER).flatMap((file) => {
        const types: string[] = [];
        const walk = (node: unknown): void => {
          if (Array.isArray(node)) {
            for (const child of node) walk(child);
            return;
          }
          if (node === null || typeof node !== 'object') return;
          const current = node as Node;
          const method = current.callee?.property?.name;
          if (
            current.type === 'CallExpression' &&
            (method === 'record' || method === 'softDelete' || method === 'viewed')
          ) {
            const entityType = current.arguments
              ?.at(-1)
              ?.properties?.find((property) => property.key?.name === 'entityType')?.value as
              | Node
              | undefined;
            if (entityType?.type === 'StringLiteral') types.push(entityType.value as string);
          }
          for (const [key, child] of Object.entries(current)) {
            if (key !== 'loc' && key !== 'start' && key !== 'end') walk(child);
          }
        };
        walk(
          parse(readFileSync(file, 'utf8'), { sourceType: 'module', plugins: ['typescript'] })
            .program,
        );
        return types;
      }),
    );
    const onlyListed = (type: string) => !byId.has(type) && RECORDED_ACTIONS.has(`${type}.listed`);
    const unnamed = AUDIT_RECORD_TYPES.filter((type) => !named.has(type) && !onlyListed(type));
    expect(unnamed).toEqual([]);
    expect(named.has('statement_assumptions')).toBe(true);
    expect(NAMED_AS_THEY_ARE.audit?.('export')).toBe('The audit log');
  });
});

/**
 * The keys an audit record's states may hold: every column of every table (a state is often a row,
 * or part of one), and every key written in the server's code inside a record's `previousState` or
 * `newState`, or in a function or value named for a state (`auditState`).
 */
function stateKeys(): Set<string> {
  const keys = new Set<string>();
  for (const table of Object.values(schema)) {
    if (is(table, PgTable)) for (const key of Object.keys(getTableColumns(table))) keys.add(key);
  }
  const walk = (node: unknown, inState: boolean): void => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child, inState);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const current = node as Node;
    if (typeof current.type !== 'string') return;
    const name = current.key?.name ?? current.id?.name ?? '';
    const state =
      inState ||
      (current.type === 'ObjectProperty' && (name === 'previousState' || name === 'newState')) ||
      ((current.type === 'FunctionDeclaration' || current.type === 'VariableDeclarator') &&
        /State/.test(name));
    if (state && current.type === 'ObjectProperty' && current.key?.type === 'Identifier') {
      keys.add(name);
    }
    for (const [key, child] of Object.entries(current)) {
      if (key !== 'loc' && key !== 'start' && key !== 'end') walk(child, state);
    }
  };
  for (const file of sourceFiles(SERVER)) {
    walk(
      parse(readFileSync(file, 'utf8'), { sourceType: 'module', plugins: ['typescript'] }).program,
      false,
    );
  }
  return keys;
}

/** Abbreviations a reader of the log knows as they are (`ACRONYMS`, src/contracts/audit-changes.ts). */
const KNOWN_ABBREVIATIONS = new Set(['AI', 'CRO', 'ISIN', 'LEI', 'PDF', 'PPS', 'SHA-256', 'SR']);
/**
 * Short words that are words: a word of three letters or fewer not here is taken for an
 * abbreviation, and its field needs words in `FIELD_NAMES`.
 */
const SHORT_WORDS = new Set([
  ...['a', 'age', 'and', 'app', 'as', 'at', 'by', 'day', 'due', 'end', 'for', 'gap', 'how', 'id'],
  ...['ids', 'in', 'is', 'job', 'key', 'met', 'new', 'now', 'of', 'on', 'pay', 'run', 'set', 'to'],
  ...['the', 'up', 'via', 'web'],
]);

describe('the fields of an audit record', () => {
  it('each read as words: no abbreviation a reader may not know, no name run together', () => {
    const keys = stateKeys();
    expect(keys.size).toBeGreaterThan(300);
    const withoutWords = [...keys].filter((key) =>
      fieldInWords(key)
        .split(/[\s›]+/)
        .some((word) =>
          /[A-Z]/.test(word.slice(1))
            ? !KNOWN_ABBREVIATIONS.has(word)
            : word.length <= 3 && !SHORT_WORDS.has(word.toLowerCase()),
        ),
    );
    expect(withoutWords).toEqual([]);
    expect(fieldInWords('oraReports')).toBe('Own-risk assessment reports');
    expect(fieldInWords('annuityFactorHundredths')).toBe('Annuity factor');
  });

  it('set the ids and hashes apart, for an auditor to look up', () => {
    expect(
      ['id', 'schemeId', 'employeeIds', 'fileSha256', 'previousHash'].map(isTechnicalField),
    ).toEqual([true, true, true, true, true]);
    expect(['oraReports', 'status', 'paid', 'hashVersionNote'].map(isTechnicalField)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
