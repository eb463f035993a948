import { Box, Stack, Text, VisuallyHidden } from '@mantine/core';
import classes from './DraftComparison.module.css';
import type { ShownLine } from './line-diff';

/**
 * Two versions of a draft, line by line: removed lines struck through and marked −, added lines
 * underlined and marked +, each also named in words for screen readers, so that no change is told
 * by colour alone (WCAG 1.4.1).
 */
export function DraftComparison({
  lines,
  summary,
  label,
}: {
  lines: readonly ShownLine[];
  summary: string;
  label: string;
}) {
  return (
    <Stack gap="xs">
      <Text size="sm">{summary}</Text>
      {lines.length > 0 && (
        // It scrolls on its own, so the keyboard can reach it to scroll it (WCAG 2.1.1).
        <Box component="ol" className={classes.lines} aria-label={label} tabIndex={0}>
          {lines.map((line) => {
            if (line.kind === 'same') {
              return (
                <li key={line.key} className={classes.same}>
                  <span aria-hidden="true" className={classes.mark} />
                  {line.text}
                </li>
              );
            }
            const Tag = line.kind === 'added' ? 'ins' : 'del';
            return (
              <li key={line.key} className={classes[line.kind]}>
                <span aria-hidden="true" className={classes.mark}>
                  {line.kind === 'added' ? '+' : '−'}
                </span>
                <VisuallyHidden>{line.kind === 'added' ? 'Added: ' : 'Removed: '}</VisuallyHidden>
                <Tag>{line.text}</Tag>
              </li>
            );
          })}
        </Box>
      )}
    </Stack>
  );
}
