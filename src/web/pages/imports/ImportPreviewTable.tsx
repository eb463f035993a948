import { Alert, Badge, Table, Text } from '@mantine/core';
import { fileSizeInWords } from '../../../contracts/file-size';
import { counted } from '../../../contracts/plain-english';
import { type CsvPreview, PREVIEW_BYTES } from './csvPreview';
import { ImportIssuesTable } from './ImportIssuesTable';
import {
  type ImportFormat,
  isKnownHeading,
  isPrivateHeading,
  missingColumns,
  unknownHeadings,
} from './importFormats';

/**
 * The file's headings and first rows as the browser read them, with headings this import does
 * not know marked, and the rows the service will refuse as CSV, in its words. PPS numbers are
 * masked: a preview is no place to show them.
 */
export function ImportPreviewTable({
  preview,
  format,
}: {
  preview: CsvPreview;
  format: ImportFormat;
}) {
  const unknown = unknownHeadings(format, preview.headings);
  const missing = missingColumns(format, preview.headings);
  const hidden = preview.headings.map((heading) => isPrivateHeading(format, heading));
  const width = Math.max(preview.headings.length, ...preview.rows.map((row) => row.cells.length));
  const columns = Array.from({ length: width }, (_, index) => index);

  return (
    <>
      {preview.problems.length > 0 && (
        <>
          <Alert color="red" title="Rows the service will refuse" role="alert">
            The service refuses the whole file for any of these: correct these lines, or save the
            file again from the spreadsheet as CSV.
            {preview.partial &&
              ` The preview reads only the first ${fileSizeInWords(PREVIEW_BYTES)} of the file; the rest is checked when the file is sent.`}
          </Alert>
          <ImportIssuesTable issues={preview.problems} issueCount={preview.problems.length} />
        </>
      )}
      {unknown.length > 0 && (
        <Alert variant="default" title="Headings this import does not read">
          {unknown.join(', ')}. The service will refuse the file unless they are renamed to one of
          the headings listed for a column, or removed.
        </Alert>
      )}
      {missing.length > 0 && (
        <Alert variant="default" title="Required columns the file lacks">
          {missing.join('; ')}. The service will refuse the file without them: check the first line
          of the file and whether the right kind of file was chosen.
        </Alert>
      )}
      {preview.rows.length === 0 && preview.problems.length === 0 && (
        <Text c="dimmed">The file has a heading row but no rows were found after it.</Text>
      )}
      <Table.ScrollContainer minWidth={600}>
        <Table striped withTableBorder captionSide="top">
          <Table.Caption style={{ textAlign: 'left' }}>
            {preview.more
              ? `The first ${counted(preview.rows.length, 'row')} of the file`
              : preview.rows.length === 1
                ? 'The only row of the file'
                : `All ${counted(preview.rows.length, 'row')} of the file`}
            {hidden.some(Boolean) ? '; PPS numbers are hidden' : ''}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Line</Table.Th>
              {columns.map((index) => {
                const heading = preview.headings[index] ?? '';
                return (
                  <Table.Th key={index}>
                    {heading}
                    {heading.trim() !== '' && !isKnownHeading(format, heading) && (
                      <Badge color="yellow" variant="dot" ml={4} size="xs">
                        Unknown
                      </Badge>
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((row) => (
              <Table.Tr key={row.line}>
                <Table.Td>{row.line}</Table.Td>
                {columns.map((index) => (
                  <Table.Td key={index}>
                    {hidden[index] && (row.cells[index] ?? '') !== ''
                      ? '••••••••'
                      : (row.cells[index] ?? '')}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
