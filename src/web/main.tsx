import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { whenSessionEnds } from './api/client';
import { pageNonce } from './csp-nonce';
import { router } from './router';
import { initTelemetry } from './telemetry';

void initTelemetry();
const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'md' });
const nonce = pageNonce();
const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not change on a retry; the service's own errors are shown instead.
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});
whenSessionEnds(() => {
  queryClient.clear();
  void router.navigate({ to: '/signin' });
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} getStyleNonce={() => nonce ?? ''}>
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
