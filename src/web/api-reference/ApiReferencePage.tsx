import { Container } from '@mantine/core';
import { AccessGate } from '../components/AccessGate';
import { PAGES } from '../layout/pages';
import { ApiReference } from './ApiReference';

/** For those whose work the API scripts (layout/pages.ts); a member's portal offers none. */
export function ApiReferencePage() {
  return (
    <AccessGate access={PAGES.apiReference}>
      <Container size="lg" py="md">
        <ApiReference />
      </Container>
    </AccessGate>
  );
}
