import { Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table wider than a phone's screen, in a container that says so (tables that show
 * they scroll; docs/decisions/0046-layout-for-everyday-use.md) and that the keyboard can reach, so its hidden columns can be scrolled into view
 * without a pointer (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
/**
 * A column that stays at one edge of a table that scrolls sideways, on the page's own background
 * so the other columns pass beneath it. A table that fits does not scroll, and the style then
 * changes nothing.
 */
const pinned = <Edge extends 'left' | 'right'>(edge: Edge) =>
  ({
    position: 'sticky',
    [edge]: 0,
    zIndex: 1,
    background: 'var(--mantine-color-body)',
  }) as const;

/**
 * A row's buttons at the right edge: on a phone a person reaches what they can do with a row
 * without first scrolling past every column of it.
 */
export const PINNED_END = pinned('right');

/** Whose row it is, at the left edge: the row's name stays in view while its figures scroll. */
export const PINNED_START = pinned('left');

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
