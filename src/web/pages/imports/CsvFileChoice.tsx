import { Button, FileInput, Group } from '@mantine/core';
import { fileSizeInWords } from '../../../contracts/file-size';
import { MAX_IMPORT_BYTES } from './importFormats';
import type { useCsvChoice } from './useCsvChoice';

/**
 * The file input of every CSV upload wizard (the scheme imports, the employer's payroll) and the
 * step on to its preview, which waits until the file has been read and found sendable.
 */
export function CsvFileChoice({
  chosen,
  onNext,
}: {
  chosen: ReturnType<typeof useCsvChoice>;
  onNext: () => void;
}) {
  return (
    <>
      <FileInput
        label="CSV file"
        description={`UTF-8, comma-separated, headings on the first line; at most ${fileSizeInWords(MAX_IMPORT_BYTES)}`}
        accept=".csv,text/csv"
        value={chosen.file}
        onChange={chosen.choose}
        error={chosen.problem}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
      />
      <Group justify="flex-end">
        <Button onClick={onNext} disabled={!chosen.ready}>
          Preview the file
        </Button>
      </Group>
    </>
  );
}
