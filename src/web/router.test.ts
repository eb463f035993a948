import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRouter, RouterContextProvider } from '@tanstack/react-router';
import { createElement, type FunctionComponent } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { allows } from './auth/can';
import { SESSION_KEY, type Session } from './auth/session';
import { PAGES } from './layout/pages';
import { router } from './router';

/**
 * The router wraps each signed-in page it loads in the AccessGate of its PAGES entry
 * (docs/decisions/0153-firm-records-not-the-platforms-pages.md): rendered as the router renders
 * it, every such page turns away a session the gate does not allow before its own chunk renders.
 */

/** Each lazily loaded page of the router: its address and the component the router renders. */
function routedPages(): Array<{ path: string; component: FunctionComponent }> {
  return Object.values(router.routesById).flatMap((route) => {
    const component = route.options.component as
      | (FunctionComponent & { preload?: unknown })
      | undefined;
    return component?.preload ? [{ path: route.fullPath, component }] : [];
  });
}

/**
 * A Member's session with no firm, employer or member record: the policy table allows it
 * nothing, so every gate turns it away.
 */
const allowedNothing = {
  user: { id: 'u', email: 'nobody@example.ie', role: 'Member', brokerId: null, employerId: null },
  account: { memberId: null },
  secondFactorSetupRequired: false,
} as unknown as Session;

/** What the route's component shows to that session, inside the providers the app gives it. */
function shownToAllowedNothing(component: FunctionComponent): string {
  const client = new QueryClient();
  client.setQueryData(SESSION_KEY, allowedNothing);
  const local = createRouter({
    routeTree: router.routeTree,
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  return renderToString(
    createElement(
      QueryClientProvider,
      { client },
      createElement(
        MantineProvider,
        null,
        createElement(
          RouterContextProvider,
          // The child comes as createElement's third argument; the props' type asks for it as a prop.
          { router: local } as Parameters<typeof RouterContextProvider>[0],
          createElement(component),
        ),
      ),
    ),
  );
}

describe('the pages behind sign-in', () => {
  it('are all found in the router', () => {
    const paths = routedPages().map((page) => page.path);
    expect(paths).toContain('/members/$memberId');
    expect(paths).toContain('/statement-runs/$runId');
    expect(paths.length).toBeGreaterThan(25);
  });

  it('each answer "Not available", and render none of their own content, to a session no PAGES entry allows', () => {
    for (const access of Object.values(PAGES)) expect(allows(allowedNothing, access)).toBe(false);
    const ungated = routedPages().filter(({ component }) => {
      let shown: string;
      try {
        shown = shownToAllowedNothing(component);
      } catch {
        // The page's own chunk was asked to render: nothing stood before it.
        return true;
      }
      return !shown.includes('Not available');
    });
    expect(ungated.map((page) => page.path)).toEqual([]);
  });
});
