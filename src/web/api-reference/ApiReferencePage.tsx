import { Container } from '@mantine/core';
import { ApiReference } from './ApiReference';

/** For those whose work the API scripts (layout/pages.ts); a member's portal offers none. */
export function ApiReferencePage() {
  return (
    <Container size="lg" py="md">
      <ApiReference />
    </Container>
  );
}
