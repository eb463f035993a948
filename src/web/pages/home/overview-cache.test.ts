import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { OVERVIEW_KEY, refreshAfterImport } from './overview-cache';

/**
 * An upload of members or contributions refreshes the overview too: the home page's recent
 * uploads and the schemes' latest periods come from it (docs/decisions/0045-home-pages-by-role.md).
 */
describe('after an upload', () => {
  it('marks the overview and the scheme stale, and no other scheme', async () => {
    const client = new QueryClient();
    client.setQueryData(OVERVIEW_KEY, { recentUploads: [] });
    client.setQueryData(['schemes', 's1', 'imports'], { items: [] });
    client.setQueryData(['schemes', 's2', 'imports'], { items: [] });

    await refreshAfterImport(client, 's1');

    expect(client.getQueryState(OVERVIEW_KEY)?.isInvalidated).toBe(true);
    expect(client.getQueryState(['schemes', 's1', 'imports'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['schemes', 's2', 'imports'])?.isInvalidated).toBe(false);
  });
});
