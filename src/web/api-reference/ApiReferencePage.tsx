import { Container } from '@mantine/core';
import { ROLES_AT_EMPLOYER_LEVEL_AND_UP } from '../components/access';
import { RoleGate } from '../components/RoleGate';
import { ApiReference } from './ApiReference';

/** Staff only: a member's portal offers no API reference (issue 21, item 3). */
export function ApiReferencePage() {
  return (
    <RoleGate roles={ROLES_AT_EMPLOYER_LEVEL_AND_UP}>
      <Container size="lg" py="md">
        <ApiReference />
      </Container>
    </RoleGate>
  );
}
