/**
 * What an approver changed in a generated draft, line by line, in linear time (docs/decisions/0067-ai-drafts.md).
 * Not a minimal diff (that is quadratic): the lines
 * both texts share at the start and at the end are unchanged; between them, a line is unchanged
 * when the other text holds it too (a moved line counts as unchanged), removed when only the
 * generated text holds it, added when only the approved one does. One pass over each text, with
 * a count per distinct line.
 */
export interface LineDiff {
  added: number;
  removed: number;
  unchanged: number;
  /** The middle, marked: "- " removed, "+ " added, "  " kept. */
  lines: string[];
}

export function lineDiff(generated: string, approved: string): LineDiff {
  const before = generated.split('\n');
  const after = approved.split('\n');
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) {
    tail += 1;
  }
  const oldMiddle = before.slice(head, before.length - tail);
  const newMiddle = after.slice(head, after.length - tail);
  const remaining = new Map<string, number>();
  for (const line of oldMiddle) remaining.set(line, (remaining.get(line) ?? 0) + 1);
  const newCounts = new Map<string, number>();
  for (const line of newMiddle) newCounts.set(line, (newCounts.get(line) ?? 0) + 1);

  const lines: string[] = [];
  let removed = 0;
  for (const line of oldMiddle) {
    const left = newCounts.get(line) ?? 0;
    if (left > 0) newCounts.set(line, left - 1);
    else {
      lines.push(`- ${line}`);
      removed += 1;
    }
  }
  let added = 0;
  let kept = 0;
  for (const line of newMiddle) {
    const left = remaining.get(line) ?? 0;
    if (left > 0) {
      remaining.set(line, left - 1);
      lines.push(`  ${line}`);
      kept += 1;
    } else {
      lines.push(`+ ${line}`);
      added += 1;
    }
  }
  return { added, removed, unchanged: head + tail + kept, lines };
}
