import { describe, expect, it } from 'vitest';
import { IMPORT_FORMATS, refusalOfPreview } from './importFormats';

/**
 * Whether the wizard offers to send a file: not when its preview already shows what the service
 * refuses the whole file for (docs/imports.md), and then it says why beside the button.
 */
const contributions = IMPORT_FORMATS.contributions;
const members = IMPORT_FORMATS.members;

describe('the refusal the preview foresees', () => {
  it('is none for a file the preview finds nothing wrong with, an Arrangement column in any case included', () => {
    expect(
      refusalOfPreview(contributions, {
        headings: ['PPSN', 'Period', 'Employee', 'ARRANGEMENT'],
        problems: [],
      }),
    ).toBeNull();
    expect(
      refusalOfPreview(members, {
        headings: [
          'PPSN',
          'First Name',
          'Surname',
          'Date of Birth',
          'Date Joined',
          'Salary',
          'pension scheme',
        ],
        problems: [],
      }),
    ).toBeNull();
  });

  it('names a heading the import does not read', () => {
    expect(
      refusalOfPreview(contributions, {
        headings: ['PPSN', 'Period', 'Employee', 'Notes'],
        problems: [],
      }),
    ).toBe(
      'The service will refuse this file as it is: a heading (Notes) that this import does not read. Correct the file and choose it again.',
    );
  });

  it('names every reason at once: unknown headings, missing columns and the lines it lists', () => {
    expect(
      refusalOfPreview(contributions, {
        headings: ['PPSN', 'Employee', 'Notes', 'Cost Centre'],
        problems: [
          { line: 3, column: null, code: 'malformed_csv', message: 'x' },
          { line: 5, column: 'column E', code: 'too_many_cells', message: 'x' },
          { line: 5, column: 'column F', code: 'too_many_cells', message: 'x' },
        ],
      }),
    ).toBe(
      'The service will refuse this file as it is: headings (Notes, Cost Centre) that this import does not read; a required column missing (Pay period); 2 lines the preview lists above. Correct the file and choose it again.',
    );
  });
});
