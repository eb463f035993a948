import { Center, Loader } from '@mantine/core';

/**
 * A spinner that screen readers announce: Mantine's Loader is a bare `<span>`, on which an
 * `aria-label` alone is not read out, so it gets the `status` role.
 */
export function Loading({ label }: { label: string }) {
  return (
    <Center py="md">
      <Loader role="status" aria-label={label} />
    </Center>
  );
}
