import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';

/** Also what a record of another tenant looks like: the API answers 404 and so does the page. */
export function NotFoundPage() {
  return (
    <Stack gap="sm" p="md">
      <Title order={2}>Not found</Title>
      <Text>This page does not exist, or what it shows is not yours to see.</Text>
      <Anchor component={Link} to="/">
        Go to the start page
      </Anchor>
    </Stack>
  );
}
