import { Progress, Stack, Text } from '@mantine/core';
import { counted } from '../../../contracts/plain-english';
import type { ImportSummary } from '../../api/types';

/** What progress needs of an import's record: the bytes and rows read so far. */
export type ImportProgressFigures = Pick<ImportSummary, 'fileBytes' | 'rowsRead'>;

/**
 * How far the service has got with a file. It records the bytes and rows read every few thousand
 * rows; until the first record (or for a small file) the bar runs without a figure, and once the
 * whole file is in it says the rows are being checked against what they belong to (a scheme, an
 * employer's payroll).
 */
export function ImportProgress({
  fileBytes,
  progress,
  checkedAgainst,
}: {
  fileBytes: number;
  progress: ImportProgressFigures | null;
  /** What the rows are checked against once read, as the last stage names it ("the scheme"). */
  checkedAgainst: string;
}) {
  const received = progress?.fileBytes ?? 0;
  const percent = fileBytes > 0 ? Math.min(100, Math.floor((received / fileBytes) * 100)) : 0;
  const rowsRead = progress?.rowsRead ?? 0;
  const stage =
    received === 0
      ? 'Uploading the file and checking its rows…'
      : percent < 100
        ? `${counted(rowsRead, 'row')} read and checked…`
        : `All ${counted(rowsRead, 'row')} read; checking them against ${checkedAgainst}…`;

  return (
    <Stack gap="xs">
      {received === 0 ? (
        // No figure yet: a busy bar, announced without a value (an indeterminate progress bar).
        <Progress.Root
          size="lg"
          role="progressbar"
          aria-label="Import progress"
          aria-valuetext="Working"
        >
          <Progress.Section value={100} animated withAria={false} />
        </Progress.Root>
      ) : (
        <Progress value={percent} size="lg" animated aria-label="Import progress" />
      )}
      <Text size="sm" aria-live="polite">
        {stage}
      </Text>
    </Stack>
  );
}
