import {
  AppShell,
  Burger,
  Button,
  Group,
  Loader,
  NavLink,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Navigate, Outlet, useRouterState } from '@tanstack/react-router';
import { useSession, useSignOut } from '../auth/session';
import { navigationFor } from './navigation';

/** The frame of every signed-in page; without a session it sends the visitor to sign in. */
export function AppLayout() {
  const session = useSession();
  const signOut = useSignOut();
  const [opened, { toggle, close }] = useDisclosure();
  const path = useRouterState({ select: (state) => state.location.pathname });

  if (session.isPending) {
    return (
      <Stack align="center" mt="xl">
        <Loader aria-label="Loading" />
      </Stack>
    );
  }
  if (!session.data) return <Navigate to="/signin" />;
  const { account } = session.data;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Title order={1} size="h3">
              Pension Admin
            </Title>
          </Group>
          <Group gap="sm">
            <Text size="sm" visibleFrom="sm">
              {account.name} · {account.role}
            </Text>
            <Button variant="default" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        {navigationFor(session.data).map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            active={path === item.to || path.startsWith(`${item.to}/`)}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
