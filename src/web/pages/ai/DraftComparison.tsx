import { Box, Stack, Text, VisuallyHidden } from '@mantine/core';
import { type DiffLine, recordedLine } from '../../../contracts/line-diff';
import classes from './DraftComparison.module.css';

/** A line as the comparison shows it, from the diff being made or from the approval's record. */
export interface ShownLine {
  key: string;
  kind: DiffLine['kind'];
  text: string;
}

/** The comparison being made (contracts/line-diff.ts), keyed by the lines' numbers on their side. */
export function shownLines(lines: readonly DiffLine[]): ShownLine[] {
  return lines.map((line) => ({
    key:
      line.kind === 'same'
        ? `s${line.before}`
        : line.kind === 'removed'
          ? `r${line.before}`
          : `a${line.after}`,
    kind: line.kind,
    text: line.text,
  }));
}

/** The lines the approval recorded (`approvedDiff.lines`), keyed by their place in the record. */
export function recordedLines(lines: readonly string[]): ShownLine[] {
  return lines.map((line, position) => ({ key: `${position}`, ...recordedLine(line) }));
}

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
