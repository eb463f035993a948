import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import {
  Badge,
  createTheme,
  DataList,
  InputError,
  MantineProvider,
  Notification,
} from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { whenSessionEnds } from './api/client';
import { signInSearch } from './auth/return-path';
import { FieldErrorSentence } from './components/FieldErrorSentence';
import { pageNonce } from './csp-nonce';
import { router } from './router';
import { initTelemetry } from './telemetry';

void initTelemetry();
const nonce = pageNonce();
// Mantine's modal scroll lock adds a <style> element through react-style-singleton, which takes
// its nonce from get-nonce: without it every open dialog breaks the strict CSP.
if (nonce) setNonce(nonce);
// Shade 8 of blue, red 8 for errors, grey 7 for dimmed text and shade 9 on light backgrounds reach the 4.5:1 contrast of WCAG AA on white.
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  defaultRadius: 'md',
  // People who ask their system for less motion get no transitions (WCAG 2.3.3).
  respectReducedMotion: true,
  components: {
    // Every notification's close button is named for screen readers, wherever it is shown from.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
    }),
    // A long value (an e-mail address, a postal address) wraps within a phone's screen instead of
    // widening the page past it.
    DataList: DataList.extend({
      styles: { itemValue: { overflowWrap: 'anywhere', minWidth: 0 } },
    }),
    // A status badge is read whole: in a narrow table column it shrank to "S…" and "R…", Stored
    // and Refused then told apart by colour alone. It keeps its width, and the table scrolls.
    Badge: Badge.extend({
      styles: { root: { flexShrink: 0, minWidth: 'max-content' } },
    }),
    // Every field's error reads as a sentence after its label (components/field-error.ts).
    InputError: InputError.extend({
      defaultProps: { component: FieldErrorSentence } as Record<string, unknown>,
    }),
  },
});
/**
 * Light variants (active links, alerts, badges) write in their colour's shade 6 by default, too
 * pale on their tinted background. Shade 9 is dark enough for these; the yellow-green colours
 * need near-black even at shade 9.
 */
const LIGHT_VARIANT_TEXT: Record<string, string> = {
  ...Object.fromEntries(
    ['blue', 'red', 'gray', 'grape', 'violet', 'indigo', 'pink'].map((colour) => [
      colour,
      `var(--mantine-color-${colour}-9)`,
    ]),
  ),
  ...Object.fromEntries(
    ['green', 'teal', 'lime', 'yellow', 'orange', 'cyan'].map((colour) => [
      colour,
      'var(--mantine-color-dark-9)',
    ]),
  ),
};
const cssVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    ...Object.fromEntries(
      Object.entries(LIGHT_VARIANT_TEXT).map(([colour, text]) => [
        `--mantine-color-${colour}-light-color`,
        text,
      ]),
    ),
  },
  dark: {},
});
const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not change on a retry; the service's own errors are shown instead.
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});
whenSessionEnds(() => {
  queryClient.clear();
  // Back to this page once signed in again: the work in hand is where the person wants to be.
  void router.navigate({ to: '/signin', search: signInSearch(router.state.location.href) });
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      getStyleNonce={() => nonce ?? ''}
    >
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
