import { Container } from '@mantine/core';
import { AccessGate } from '../components/AccessGate';
import { PAGES } from '../layout/pages';
import { ApiReference } from './ApiReference';

/** Staff only: a member's portal offers no API reference. */
export function ApiReferencePage() {
  return (
    <AccessGate access={PAGES.apiReference}>
      <Container size="lg" py="md">
        <ApiReference />
      </Container>
    </AccessGate>
  );
}
