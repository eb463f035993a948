import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A heading with the actions that belong to it beside it: the page's one h2 (the layout holds
 * the h1), or with `order={3}` a section's. `id` lets a section name itself by its heading.
 */
export function PageHeading({
  title,
  order = 2,
  id,
  children,
}: {
  title: ReactNode;
  order?: 2 | 3;
  id?: string;
  children?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="center" gap="sm">
      <Title order={order} id={id}>
        {title}
      </Title>
      {children && <Group gap="sm">{children}</Group>}
    </Group>
  );
}
