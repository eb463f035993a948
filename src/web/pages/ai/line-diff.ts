/**
 * What changed between the text a draft was generated with and the text as edited, line by line:
 * the reviewer of an AI or template draft must see every word a person changed before approving
 * it (decisions.md §6 "AI": only approved text is ever issued).
 */
export type DiffLine =
  | { kind: 'same'; text: string; before: number; after: number }
  | { kind: 'removed'; text: string; before: number }
  | { kind: 'added'; text: string; after: number };

/** Lines of a text; a final line end opens no extra, empty line. */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A shortest edit script from `before` to `after` (Myers, "An O(ND) difference algorithm", 1986):
 * time and memory grow with the number of changed lines D, not with the square of the length,
 * so reviewing a long draft with a few edits stays instant. Within a run of changes the removed
 * lines come before the added ones, as a reader compares them. Line numbers count from 1.
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = linesOf(before);
  const b = linesOf(after);
  const n = a.length;
  const m = b.length;
  const offset = n + m;
  // front[k + offset]: how far along `a` the furthest path on diagonal k = x - y has reached.
  const on = (front: Int32Array, k: number) => front[k + offset] ?? 0;
  // Whether the path onto diagonal k comes down from k + 1 (a line added) or across from k - 1.
  const down = (front: Int32Array, k: number, d: number) =>
    k === -d || (k !== d && on(front, k - 1) < on(front, k + 1));
  const front = new Int32Array(2 * offset + 2);
  const trace: Int32Array[] = [];
  let edits = -1;
  for (let d = 0; d <= offset && edits < 0; d++) {
    trace.push(front.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = down(front, k, d) ? on(front, k + 1) : on(front, k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      front[k + offset] = x;
      if (x >= n && y >= m) {
        edits = d;
        break;
      }
    }
  }

  // Walk back from the end through the recorded fronts, one edit per step.
  const reversed: DiffLine[] = [];
  let x = n;
  let y = m;
  const same = () => {
    x--;
    y--;
    reversed.push({ kind: 'same', text: a[x] ?? '', before: x + 1, after: y + 1 });
  };
  for (let d = edits; d > 0; d--) {
    const previous = trace[d] ?? front;
    const k = x - y;
    const added = down(previous, k, d);
    const previousK = added ? k + 1 : k - 1;
    const previousX = on(previous, previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) same();
    if (added) {
      y--;
      reversed.push({ kind: 'added', text: b[y] ?? '', after: y + 1 });
    } else {
      x--;
      reversed.push({ kind: 'removed', text: a[x] ?? '', before: x + 1 });
    }
  }
  while (x > 0 && y > 0) same();
  return groupRemovalsFirst(reversed.reverse());
}

/** Within each run of changed lines, the removed lines first, then the added, each in order. */
function groupRemovalsFirst(lines: DiffLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    out.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === 'removed') removed.push(line);
    else if (line.kind === 'added') added.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}

/** How many lines were added and removed, for a one-line summary above the comparison. */
export function diffSummary(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === 'added') added++;
    else if (line.kind === 'removed') removed++;
  }
  return { added, removed };
}

/** A line as the comparison shows it, whichever diff it came from. */
export interface ShownLine {
  key: string;
  kind: DiffLine['kind'];
  text: string;
}

/** The web's own diff, keyed by the lines' numbers on their side. */
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

/**
 * The diff the server records when a draft is approved (`approvedDiff.lines`): each line marked
 * `- ` removed, `+ ` added or two spaces kept, covering the text between the lines both versions
 * share at the start and at the end.
 */
export function recordedLines(lines: readonly string[]): ShownLine[] {
  return lines.map((line, position) => {
    const kind = line.startsWith('+ ') ? 'added' : line.startsWith('- ') ? 'removed' : 'same';
    return { key: `${position}`, kind, text: line.slice(2) };
  });
}
