import { schemeNamer } from '../../../contracts/imports.js';
import type { ImportScope } from '../../platform/uploads/import-kind.js';

/** The code and sentence of a row whose Arrangement names another scheme, or none. */
export const OTHER_ARRANGEMENT = {
  code: 'other_arrangement',
  message:
    'names an arrangement other than this scheme: give this scheme’s name or id, or leave it empty',
} as const;

/**
 * Whether a row's Arrangement cell may stand in a file imported into the scheme: empty, or naming
 * this scheme by its id or its name as payroll exports write it, by the payroll upload's own rule
 * (`schemeNamer`, docs/imports.md). A file names the same arrangement on line after line, so the
 * last cell's answer is kept.
 */
export function thisSchemeArrangement(scope: ImportScope): (cell: string) => boolean {
  const named = schemeNamer([{ id: scope.schemeId, name: scope.schemeName }]);
  let lastCell = '';
  let lastAnswer = true;
  return (cell) => {
    if (cell === '') return true;
    if (cell !== lastCell) {
      lastCell = cell;
      lastAnswer = named(cell) === 0;
    }
    return lastAnswer;
  };
}
