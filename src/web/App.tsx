import { Anchor, AppShell, Container, Group, Stack, Text, Title } from '@mantine/core';
import { ApiReference } from './api-reference/ApiReference';

/** The shell every screen will live in; the screens themselves come with their features. */
export function App() {
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md">
          <Title order={1} size="h3">
            Pension Admin
          </Title>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        {window.location.pathname === '/api-reference' ? (
          <Container size="lg" py="xl">
            <ApiReference />
          </Container>
        ) : (
          <Container size="sm" py="xl">
            <Stack gap="sm">
              <Title order={2}>Scheme administration for broker firms</Title>
              <Text>
                Employers, occupational pension schemes and their members, with contributions, fund
                choices and governance records, kept under IORP II, DORA and GDPR.
              </Text>
              <Text c="dimmed" size="sm">
                The service is running. The API description is at{' '}
                <Anchor href="/openapi.json">/openapi.json</Anchor>, and readable at{' '}
                <Anchor href="/api-reference">/api-reference</Anchor> once signed in.
              </Text>
            </Stack>
          </Container>
        )}
      </AppShell.Main>
    </AppShell>
  );
}
