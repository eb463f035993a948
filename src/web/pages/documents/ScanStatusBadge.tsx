import { Badge } from '@mantine/core';
import { SCAN_STATUS_LABELS, type ScanStatus } from '../../../contracts/documents';

const COLOURS: Record<ScanStatus, string> = {
  pending: 'yellow',
  clean: 'green',
  quarantined: 'red',
  unscanned: 'gray',
};

/** A document's malware scan in plain words; one never checked says so (SCAN_STATUS_LABELS). */
export function ScanStatusBadge({ status }: { status: ScanStatus }) {
  return (
    <Badge variant="light" color={COLOURS[status]} miw="max-content" tt="none">
      {SCAN_STATUS_LABELS[status]}
    </Badge>
  );
}
