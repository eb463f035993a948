// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the scanner is tested on lines of source code, placeholders and all
import { describe, expect, it } from 'vitest';
import { ROLE_NAMES, ROLES } from '../../src/contracts/roles.js';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * A role is shown to a person in words, by ROLE_NAMES in src/contracts/roles.ts, never by its code:
 * the header once read "Niamh Kelly · BrokerUser" and the payroll uploads "By: EmployerAdmin".
 * This scan keeps a role's code off the pages of src/web.
 */

/** Ways a line shows a role's code: in JSX, in a template, as a table cell, or with a fallback. */
const RAW_ROLES: readonly RegExp[] = [
  /\{[\w.?]*\brole\}/,
  /\$\{[\w.?]*\brole\}/,
  /render: \([^)]*\) => [\w.?]*\.role\b(?!\])/,
  /\.role \?\? ['"`]/,
  /label=\{(?:option|role)\}/,
  // A code written into a sentence: "A BrokerAdmin of the firm can set it".
  /['"`][^'"`]*\s(?:SuperAdmin|BrokerAdmin|BrokerUser|EmployerAdmin|EmployerUser)\s[^'"`]*['"`]/,
];

describe('roles shown to people', () => {
  it('each have words, which are not the code', () => {
    for (const role of ROLES) {
      expect(ROLE_NAMES[role]).toBeTruthy();
      if (role !== 'Member') expect(ROLE_NAMES[role]).not.toBe(role);
      expect(ROLE_NAMES[role]).not.toMatch(/[a-z][A-Z]/);
    }
    expect(new Set(Object.values(ROLE_NAMES)).size).toBe(ROLES.length);
  });

  it('the scanner finds the codes the pages showed', () => {
    for (const line of [
      '                {account.name} · {account.role}',
      '      render: (account) => account.role,',
      "    { key: 'by', header: 'By', render: (upload) => upload.uploadedBy.role ?? 'A former user' },",
      '      .map((account) => ({ value: account.id, label: `${account.name} · ${account.role}` }))',
      '            <Table.Td>{account.role}</Table.Td>',
      "                  : 'A BrokerAdmin of the firm can set it on this page.'}",
    ]) {
      expect(
        RAW_ROLES.some((pattern) => pattern.test(line)),
        line,
      ).toBe(true);
    }
    for (const line of [
      '                {account.name} · {ROLE_NAMES[account.role]}',
      '      render: (account) => ROLE_NAMES[account.role],',
      '      sortValue: (account) => account.role,',
      '        label: `${account.name} · ${ROLE_NAMES[account.role]}`,',
      "    if (session.role === 'BrokerAdmin') return true;",
    ]) {
      expect(
        RAW_ROLES.some((pattern) => pattern.test(line)),
        line,
      ).toBe(false);
    }
  });

  it('no page of the web UI shows a role by its code', () => {
    const found = sourceFiles('src/web').flatMap(({ file, text }) =>
      text
        .split('\n')
        .flatMap((line, index) =>
          RAW_ROLES.some((pattern) => pattern.test(line))
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
