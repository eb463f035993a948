import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';

/**
 * How long to wait before the next look at a running upload. Every ~500 ms at first, then less
 * often: the API allows 100 requests a minute per client, and a 25 MiB file can take minutes.
 */
function delayAfter(polls: number): number {
  if (polls < 20) return 500;
  if (polls < 70) return 1_000;
  return 2_000;
}
const DELAY_WHEN_LIMITED = 5_000;

/** What following an upload needs of its record. */
export interface FollowedUpload {
  id: string;
  status: string;
}

/**
 * Follows an upload the browser is still sending, whatever it uploads (a scheme's import, an
 * employer's payroll). The service records the upload as soon as it starts; it is found as the
 * newest running record that `ours` accepts (this kind, this user, where the record says so) and
 * that was not among `earlierIds` (those listed before the upload), then read by id until the
 * upload's own answer arrives and `active` turns false. Returns the latest state seen, or null
 * until the record is found.
 */
export function useUploadProgress<T extends FollowedUpload>({
  list,
  read,
  ours,
  earlierIds,
  active,
}: {
  /** The newest records of the place uploaded to, newest first. */
  list: () => Promise<T[]>;
  read: (id: string) => Promise<T>;
  ours: (record: T) => boolean;
  earlierIds: ReadonlySet<string> | null;
  active: boolean;
}): T | null {
  const [progress, setProgress] = useState<T | null>(null);

  // The readers are the caller's, made anew each render; what they read is fixed by earlierIds
  // (set once per upload) and active.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!active || earlierIds === null) return;
    setProgress(null);
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let uploadId: string | null = null;
    let polls = 0;

    const look = async () => {
      let delay = delayAfter(polls);
      polls += 1;
      try {
        if (uploadId === null) {
          const found = (await list()).find(
            (item) => ours(item) && item.status === 'running' && !earlierIds.has(item.id),
          );
          if (found) {
            uploadId = found.id;
            if (!stopped) setProgress(found);
          }
        } else {
          const current = await read(uploadId);
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
  }, [earlierIds, active]);

  return progress;
}
