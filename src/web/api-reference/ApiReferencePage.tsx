import { Container } from '@mantine/core';
import { ApiReference } from './ApiReference';

export function ApiReferencePage() {
  return (
    <Container size="lg" py="md">
      <ApiReference />
    </Container>
  );
}
