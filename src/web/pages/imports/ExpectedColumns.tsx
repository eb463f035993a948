import { Anchor, Table, Text } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { csvLine } from '../../../contracts/csv';
import type { ImportFormat } from './importFormats';

/** The columns a file of this kind needs, the headings each may carry, and a template to start. */
export function ExpectedColumns({
  format,
  templateName,
}: {
  format: ImportFormat;
  /** The template's file name, as the download saves it. */
  templateName: string;
}) {
  // A heading row only: no personal data ever goes into the template. Written by the service's
  // own CSV writer (contracts/csv.ts), as its exports are.
  const templateUrl = useMemo(
    () => URL.createObjectURL(new Blob([csvLine(format.template)], { type: 'text/csv' })),
    [format],
  );
  useEffect(() => () => URL.revokeObjectURL(templateUrl), [templateUrl]);

  return (
    <div>
      <Table.ScrollContainer minWidth={560}>
        <Table captionSide="top" withTableBorder>
          <Table.Caption style={{ textAlign: 'left' }}>
            Columns of a {format.label.toLowerCase()} file. Headings may be in any case and order;
            any heading listed for a column names it.
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Column</Table.Th>
              <Table.Th>Headings</Table.Th>
              <Table.Th>Required</Table.Th>
              <Table.Th>Format</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {format.columns.map((column) => (
              <Table.Tr key={column.label}>
                <Table.Td>{column.label}</Table.Td>
                <Table.Td>{column.headings.join(', ')}</Table.Td>
                <Table.Td>{column.required}</Table.Td>
                <Table.Td>{column.format}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm" mt="xs">
        <Anchor href={templateUrl} download={templateName}>
          Download a template ({format.label.toLowerCase()})
        </Anchor>
      </Text>
    </div>
  );
}
