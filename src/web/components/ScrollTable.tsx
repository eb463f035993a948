import { Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table wider than a phone's screen, in a container that says so (tables that show
 * they scroll; docs/decisions/0046-layout-for-everyday-use.md) and that the keyboard can reach, so its hidden columns can be scrolled into view
 * without a pointer (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
/** The narrowest phone screen a table is laid out for, in CSS pixels, less the page's margins. */
const PHONE_WIDTH = 358;

export function ScrollTable({
  minWidth,
  label,
  children,
}: {
  minWidth: number;
  /** What the table holds, for the focusable region's name. */
  label: string;
  children: ReactNode;
}) {
  return (
    <Stack gap={4}>
      {/* A table that fits a phone's screen does not scroll, and says nothing of it. */}
      {minWidth > PHONE_WIDTH && (
        <Text size="xs" c="dimmed" hiddenFrom="sm" aria-hidden="true">
          Scroll sideways to see every column →
        </Text>
      )}
      <Table.ScrollContainer
        minWidth={minWidth}
        type="native"
        tabIndex={0}
        role="region"
        aria-label={label}
      >
        {children}
      </Table.ScrollContainer>
    </Stack>
  );
}
