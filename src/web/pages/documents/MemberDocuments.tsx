import { Stack, Table, Title } from '@mantine/core';
import { DOCUMENT_TYPE_LABELS, DOWNLOADABLE_SCAN_STATUSES } from '../../../contracts/documents';
import type { Member } from '../../api/types';
import { DateTime } from '../../components/DateTime';
import { QueryPanel } from '../../components/QueryPanel';
import { ScrollTable } from '../../components/ScrollTable';
import { DownloadButton } from './DownloadButton';
import { useSchemeDocuments } from './documentQueries';
import { documentName, groupVersions } from './documents-helpers';
import { ScanStatusBadge } from './ScanStatusBadge';

/**
 * A member's own scheme's documents on their home page: the API gives a Member only the
 * member-facing ones of their scheme (documents.service.ts), the latest version of each.
 */
export function MemberDocuments({ member }: { member: Member }) {
  const documents = useSchemeDocuments(member.schemeId);
  return (
    <Stack gap="sm" component="section" aria-labelledby="member-documents">
      <Title order={3} id="member-documents">
        Scheme documents
      </Title>
      <QueryPanel
        query={documents}
        loading="Loading the scheme’s documents"
        isEmpty={(data) => data.items.length === 0}
        empty="Your scheme has not shared any documents yet."
      >
        {(data) => (
          <ScrollTable minWidth={560} label="Scheme documents">
            <Table>
              <Table.Caption>The documents your scheme shares with its members</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Document</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Updated</Table.Th>
                  <Table.Th>Download</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {groupVersions(data.items).map((group) => {
                  const latest = group.versions[0];
                  if (!latest) return null;
                  return (
                    <Table.Tr key={group.key}>
                      <Table.Td>{documentName(latest)}</Table.Td>
                      <Table.Td>{DOCUMENT_TYPE_LABELS[latest.documentType]}</Table.Td>
                      <Table.Td>
                        <DateTime value={latest.createdAt} />
                      </Table.Td>
                      <Table.Td>
                        {DOWNLOADABLE_SCAN_STATUSES.includes(latest.scanStatus) ? (
                          <DownloadButton document={latest} />
                        ) : (
                          <ScanStatusBadge status={latest.scanStatus} />
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
      </QueryPanel>
    </Stack>
  );
}
