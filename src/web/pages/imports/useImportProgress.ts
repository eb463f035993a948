import { useEffect, useState } from 'react';
import { importSummary, pageOf } from '../../api/answers';
import { ApiError, api } from '../../api/client';
import type { ImportKind, ImportSummary } from '../../api/types';

/**
 * How long to wait before the next look at a running import. Every ~500 ms at first, then less
 * often: the API allows 100 requests a minute per client, and a 25 MiB file can take minutes.
 */
function delayAfter(polls: number): number {
  if (polls < 20) return 500;
  if (polls < 70) return 1_000;
  return 2_000;
}
const DELAY_WHEN_LIMITED = 5_000;

/**
 * Follows an upload the browser is still sending. The service records the import as soon as the
 * upload starts; it is found as the newest running import of this kind by this user that was not
 * in the list before the upload (`earlierIds`), then read by id until the upload's own answer arrives
 * and `active` turns false. Returns the latest state seen, or null until the import is found.
 */
export function useImportProgress({
  schemeId,
  kind,
  userId,
  earlierIds,
  active,
}: {
  schemeId: string;
  kind: ImportKind;
  userId: string;
  earlierIds: ReadonlySet<string> | null;
  active: boolean;
}): ImportSummary | null {
  const [progress, setProgress] = useState<ImportSummary | null>(null);

  useEffect(() => {
    if (!active || earlierIds === null) return;
    setProgress(null);
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let importId: string | null = null;
    let polls = 0;

    const look = async () => {
      let delay = delayAfter(polls);
      polls += 1;
      try {
        if (importId === null) {
          const page = await api(
            pageOf(importSummary),
            'GET',
            `/api/schemes/${schemeId}/imports?limit=10`,
          );
          const ours = page.items.find(
            (item) =>
              item.kind === kind &&
              item.createdBy === userId &&
              item.status === 'running' &&
              !earlierIds.has(item.id),
          );
          if (ours) {
            importId = ours.id;
            if (!stopped) setProgress(ours);
          }
        } else {
          const current = await api(importSummary, 'GET', `/api/imports/${importId}`);
          if (!stopped) setProgress(current);
        }
      } catch (error) {
        // Progress is a courtesy: the upload's own answer says how it ended. Only wait longer
        // when the API asks for it.
        if (error instanceof ApiError && error.status === 429) delay = DELAY_WHEN_LIMITED;
      }
      if (!stopped) timer = setTimeout(look, delay);
    };
    timer = setTimeout(look, delayAfter(0));
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [schemeId, kind, userId, earlierIds, active]);

  return progress;
}
