/**
 * What changed between the text a draft was generated with and the text as edited, line by line:
 * the one diff that both the reviewer's comparison in the browser and the record kept at approval
 * are made of, so the two never disagree about what a person changed
 * (docs/decisions/0067-ai-drafts.md; docs/decisions/0104-one-line-diff.md).
 *
 * A shortest edit script (Myers, "An O(ND) difference algorithm and its variations", 1986): a line
 * is unchanged only where it keeps its place among the unchanged lines, so a line moved elsewhere
 * is removed where it stood and added where it now stands. Its cost grows with the number of
 * changed lines D, not with the square of the length, and D is capped (MAX_EDITS): past the cap
 * the lines between the first and the last change are all shown removed and then all added, which
 * overstates the change but never calls a changed line unchanged.
 */

export type DiffLine =
  | { kind: 'same'; text: string; before: number; after: number }
  | { kind: 'removed'; text: string; before: number }
  | { kind: 'added'; text: string; after: number };

/**
 * The record of a comparison as the approval keeps it (`approvedDiff`): its counts, and its lines
 * from the first changed line to the last, each marked `- ` removed, `+ ` added or two spaces
 * unchanged. Unchanged lines before the first change and after the last are counted, not listed.
 */
export interface LineDiff {
  added: number;
  removed: number;
  unchanged: number;
  lines: string[];
}

/**
 * The most lines removed and added that the shortest script is searched for. Between them, the
 * search costs at most (N + M) · (MAX_EDITS + 1) comparisons of line numbers for texts of N and
 * M lines, and (MAX_EDITS + 1)² numbers of memory (4 MB): a draft's text is at most 100,000
 * characters (contracts/ai.ts), so never more than about 10⁸ comparisons, and far fewer for the
 * edits a reviewer makes, on every key press in the browser.
 */
export const MAX_EDITS = 1_000;

/** Lines of a text, CR LF, CR and LF alike; a final line end opens no extra, empty line. */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

type Edit = 'same' | 'removed' | 'added';

/**
 * Each line as a number, equal lines the same number: the search compares numbers, not strings.
 */
function numbered(a: readonly string[], b: readonly string[]): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  return [Int32Array.from(a, idOf), Int32Array.from(b, idOf)];
}

/**
 * The shortest edit script from `a` to `b`, in order; null when it needs more than `maxEdits`
 * lines removed and added. `front[k]` is how far along `a` the furthest path on diagonal k = x - y
 * has reached; after each round d the diagonals -d..d of it are kept to walk the path back.
 */
function shortestScript(a: Int32Array, b: Int32Array, maxEdits: number): Edit[] | null {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, maxEdits);
  const offset = limit + 1;
  const front = new Int32Array(2 * limit + 3);
  const rounds: Int32Array[] = [];
  // Whether the path onto diagonal k comes down from k + 1 (a line added) or across from k - 1.
  const fromAbove = (at: (k: number) => number, k: number, d: number) =>
    k === -d || (k !== d && at(k - 1) < at(k + 1));
  const current = (k: number) => front[k + offset] as number;
  let edits = -1;
  for (let d = 0; d <= limit && edits < 0; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = fromAbove(current, k, d) ? current(k + 1) : current(k - 1) + 1;
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
    rounds.push(front.slice(offset - d, offset + d + 1));
  }
  if (edits < 0) return null;

  const reversed: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = edits; d > 0; d--) {
    const previous = rounds[d - 1] as Int32Array;
    const before = (k: number) => previous[k + d - 1] as number;
    const k = x - y;
    const added = fromAbove(before, k, d);
    const previousK = added ? k + 1 : k - 1;
    const previousX = before(previousK);
    const previousY = previousX - previousK;
    // The unchanged run that followed this round's edit, then the edit itself.
    const editX = added ? previousX : previousX + 1;
    while (x > editX) {
      reversed.push('same');
      x--;
      y--;
    }
    reversed.push(added ? 'added' : 'removed');
    x = previousX;
    y = previousY;
  }
  for (; x > 0; x--) reversed.push('same');
  return reversed.reverse();
}

/**
 * The comparison of two texts, every line of both once, in order; within each run of changed
 * lines the removed come first, then the added, as a reader compares them. Line numbers count
 * from 1. Lines both texts share at the start and at the end are matched before the search, so
 * a few edits in a long text cost little more than reading it.
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const [middleA, middleB] = numbered(
    a.slice(head, a.length - tail),
    b.slice(head, b.length - tail),
  );
  // Past the cap, the whole middle as removed and then added: more than changed, never less.
  const script = shortestScript(middleA, middleB, MAX_EDITS) ?? [
    ...Array<Edit>(middleA.length).fill('removed'),
    ...Array<Edit>(middleB.length).fill('added'),
  ];

  const lines: DiffLine[] = [];
  let x = 0;
  let y = 0;
  const same = () => {
    lines.push({ kind: 'same', text: a[x] as string, before: x + 1, after: y + 1 });
    x++;
    y++;
  };
  while (x < head) same();
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    lines.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const edit of script) {
    if (edit === 'removed') {
      removed.push({ kind: 'removed', text: a[x] as string, before: x + 1 });
      x++;
    } else if (edit === 'added') {
      added.push({ kind: 'added', text: b[y] as string, after: y + 1 });
      y++;
    } else {
      flush();
      same();
    }
  }
  flush();
  while (x < a.length) same();
  return lines;
}

/** How many lines were added, removed and kept. */
export function diffSummary(lines: readonly DiffLine[]): {
  added: number;
  removed: number;
  unchanged: number;
} {
  let added = 0;
  let removed = 0;
  let unchanged = 0;
  for (const line of lines) {
    if (line.kind === 'added') added++;
    else if (line.kind === 'removed') removed++;
    else unchanged++;
  }
  return { added, removed, unchanged };
}

const MARKS = { same: '  ', removed: '- ', added: '+ ' } as const;

/** The record of a comparison (LineDiff): its counts, and its lines from first change to last. */
export function diffRecord(lines: readonly DiffLine[]): LineDiff {
  let first = 0;
  while (first < lines.length && lines[first]?.kind === 'same') first++;
  let last = lines.length;
  while (last > first && lines[last - 1]?.kind === 'same') last--;
  return {
    ...diffSummary(lines),
    lines: lines.slice(first, last).map((line) => `${MARKS[line.kind]}${line.text}`),
  };
}

/** What the approval records of `generated` against `approved`: diffLines, as its record. */
export function lineDiff(generated: string, approved: string): LineDiff {
  return diffRecord(diffLines(generated, approved));
}

/** A recorded line read back: what its mark says, and its text. */
export function recordedLine(line: string): { kind: DiffLine['kind']; text: string } {
  const kind = line.startsWith('+ ') ? 'added' : line.startsWith('- ') ? 'removed' : 'same';
  return { kind, text: line.slice(2) };
}
