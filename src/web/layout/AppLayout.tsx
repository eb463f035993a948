import {
  Alert,
  Anchor,
  AppShell,
  Burger,
  Button,
  Group,
  Loader,
  NavLink,
  Stack,
  Text,
  Title,
  useMantineTheme,
} from '@mantine/core';
import { useDisclosure, useMediaQuery, useWindowEvent } from '@mantine/hooks';
import { Link, Navigate, Outlet, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useRef, useState } from 'react';
import { ROLE_NAMES } from '../../contracts/roles';
import { ApiError, paceMessage } from '../api/client';
import { signInSearch } from '../auth/return-path';
import { useSession, useSignOut } from '../auth/session';
import classes from './AppLayout.module.css';
import { currentItem, navigationFor } from './navigation';

/** Loaded only by an account that needs it, as the signed-in pages are (router.tsx). */
const SecondFactorFirst = lazy(() =>
  import('../pages/account/SecondFactorFirst').then((module) => ({
    default: module.SecondFactorFirst,
  })),
);

/** The frame of every signed-in page; without a session it sends the visitor to sign in. */
export function AppLayout() {
  const session = useSession();
  const signOut = useSignOut();
  const [opened, { toggle, close }] = useDisclosure();
  const menuButton = useRef<HTMLButtonElement>(null);
  // Below the `sm` breakpoint the navigation is a menu over the page, opened by the menu button.
  const theme = useMantineTheme();
  const phone = useMediaQuery(`(max-width: ${theme.breakpoints.sm})`);
  // A menu over the page closes on Escape, wherever the focus is, and the focus goes back to
  // the button that opened it (WCAG 2.1.2; docs/decisions/0046-layout-for-everyday-use.md).
  useWindowEvent('keydown', (event) => {
    if (event.key !== 'Escape' || !opened) return;
    close();
    menuButton.current?.focus();
  });
  const path = useRouterState({ select: (state) => state.location.pathname });
  const href = useRouterState({ select: (state) => state.location.href });
  // Set while the account must set up a second factor, and kept until the person goes on.
  const [settingUpFactor, setSettingUpFactor] = useState(false);

  // A "signed out" answer being read again is not yet an answer: wait for the fresh one.
  if (session.isPending || (!session.data && session.isFetching)) {
    return (
      <Stack align="center" mt="xl">
        <Loader aria-label="Loading" />
      </Stack>
    );
  }
  // A busy or failing service (429, 5xx, no network) has not signed anyone out.
  if (session.isError) {
    return <SessionUnavailable error={session.error} retry={() => void session.refetch()} />;
  }
  if (!session.data) {
    // The layout stays mounted for a moment while the router moves on to the sign-in page; a
    // second redirect from there would drop the page to return to.
    if (path === '/signin') return null;
    return <Navigate to="/signin" search={signInSearch(href)} replace />;
  }
  const { account, secondFactorSetupRequired } = session.data;
  if (secondFactorSetupRequired && !settingUpFactor) setSettingUpFactor(true);
  // In its place, no page could open: the navigation leads only to the account.
  const navigation = navigationFor(session.data).filter(
    (item) => !settingUpFactor || item.to === '/account',
  );

  return (
    <>
      {/* The first stop of the keyboard: past the header and navigation to the page (WCAG 2.4.1). */}
      <a href="#main-content" className={classes.skipLink}>
        Skip to content
      </a>
      <AppShell
        header={{ height: 56 }}
        navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group wrap="nowrap" className={classes.brand}>
              <Burger
                ref={menuButton}
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label="Menu"
                aria-expanded={opened}
                aria-controls="main-navigation"
              />
              <Title order={1} size="h3" className={classes.product}>
                Pension Admin
              </Title>
              {/* Whose service this is: the broker firm, for everyone in it (docs/decisions/0045-home-pages-by-role.md). */}
              <Text size="sm" fw={600} className={classes.firm}>
                {account.firmName ?? 'Platform administration'}
              </Text>
            </Group>
            <Group gap="sm" wrap="nowrap">
              {/* Who is signed in, leading to their account (on a phone, the menu has it). */}
              <Anchor component={Link} to="/account" size="sm" visibleFrom="sm">
                {account.name} · {ROLE_NAMES[account.role]}
              </Anchor>
              <Button variant="default" size="xs" onClick={signOut}>
                Sign out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        {/* Closed on a phone, the menu is only moved off screen: inert keeps its links out of
            the keyboard's and the screen reader's way until it is opened. */}
        <AppShell.Navbar
          p="xs"
          component="nav"
          aria-label="Main"
          id="main-navigation"
          inert={phone === true && !opened}
        >
          {navigation.map((item, index, items) => (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={item.label}
              // The router would mark every item whose address leads to the page as current
              // (an employer's and its automatic enrolment's); only the most particular is.
              activeOptions={{ exact: true }}
              active={currentItem(items, path) === index}
              aria-current={currentItem(items, path) === index ? 'page' : undefined}
              onClick={close}
            />
          ))}
        </AppShell.Navbar>
        <AppShell.Main id="main-content" tabIndex={-1}>
          {settingUpFactor ? (
            <Suspense fallback={<Loader aria-label="Loading" />}>
              <SecondFactorFirst onContinue={() => setSettingUpFactor(false)} />
            </Suspense>
          ) : (
            <Outlet />
          )}
        </AppShell.Main>
      </AppShell>
    </>
  );
}

/**
 * The session could not be read. A 429 is the person's own pace meeting their allowance, and
 * says so with the wait; anything else is the service's trouble (docs/decisions/0106).
 */
function SessionUnavailable({ error, retry }: { error: unknown; retry: () => void }) {
  const ownPace = error instanceof ApiError && error.status === 429;
  return (
    <Stack align="center" mt="xl" px="md">
      <Alert
        color="yellow"
        role="alert"
        title={ownPace ? 'You are going faster than the service allows' : 'The service is busy'}
        maw={480}
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            {ownPace
              ? `${paceMessage(error)} You are still signed in.`
              : 'Your work is safe and you are still signed in. Please try again in a moment.'}
          </Text>
          <Button size="xs" onClick={retry}>
            Try again
          </Button>
        </Stack>
      </Alert>
    </Stack>
  );
}
