import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { type Access, allows } from '../auth/can';
import { useSignedIn } from '../auth/session';

/**
 * Shows a page only to those the policy table lets open it (layout/pages.ts). A URL typed by hand
 * otherwise gets a plain answer instead of a page of failed requests; the API refuses those
 * requests either way.
 */
export function AccessGate({ access, children }: { access: Access; children: ReactNode }) {
  const session = useSignedIn();
  if (allows(session, access)) return children;
  return <NotAvailable />;
}

/**
 * What a page says to someone whose role does not work on it: the page's own gate, or the API's
 * 403 for the record it is about (LoadError), read alike.
 */
export function NotAvailable() {
  return (
    <Stack gap="sm">
      <Title order={2}>Not available</Title>
      <Text>This page is not part of what your role works on.</Text>
      <Anchor component={Link} to="/">
        Go to the start page
      </Anchor>
    </Stack>
  );
}
