import { Button } from '@mantine/core';
import { DOWNLOADABLE_SCAN_STATUSES } from '../../../contracts/documents';
import type { LinkedDocumentView } from '../../../contracts/governance';
import type { SchemeDocument } from '../../api/types';
import { useApiAction } from '../../components/useApiSubmit';
import { downloadDocument } from './documentQueries';
import { documentName } from './documents-helpers';

/**
 * Downloads a document through a fresh signed URL. Offered only for a document that is served
 * (clean, or unscanned without a scanner); a refusal is told in a notification.
 */
export function DownloadButton({
  document,
  label,
}: {
  document: Pick<
    SchemeDocument | LinkedDocumentView,
    'id' | 'filename' | 'title' | 'version' | 'scanStatus'
  >;
  label?: string;
}) {
  const { run, busy } = useApiAction(() => downloadDocument(document.id));
  if (!DOWNLOADABLE_SCAN_STATUSES.includes(document.scanStatus)) return null;
  return (
    <Button
      size="compact-sm"
      variant="default"
      loading={busy}
      onClick={run}
      aria-label={`Download ${documentName(document)}, version ${document.version}`}
    >
      {label ?? 'Download'}
    </Button>
  );
}
