import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The kinds of test file that take longest by far, longest first: browser journeys, then properties. */
const HEAVY_KINDS: readonly RegExp[] = [/\/test\/e2e\//, /\.property\.test\.ts$/];
const heaviness = (spec: TestSpecification) => {
  const kind = HEAVY_KINDS.findIndex((pattern) => pattern.test(spec.moduleId));
  return kind === -1 ? HEAVY_KINDS.length : kind;
};

/**
 * The order test files start in (docs/decisions/0087-ci-time.md). Vitest starts first the files
 * that took longest in its last run, read from its cache; a clean clone, as CI runs, has none, and
 * it falls back to the largest file first. That put a short file holding a long browser journey
 * last, running alone on one core while the other stood idle. With nothing in the cache this
 * starts the browser journeys, then the property-based suites, each kind largest first, and the
 * rest after them largest first, so a run ends on short files that keep both cores busy.
 */
export class LongestKindsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const root = this.ctx.config.root;
    const timed = files.some((spec) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(root, spec.moduleId)}`),
    );
    if (timed) return ordered;
    // A stable sort: within a kind, the largest-first order above stands.
    return [...ordered].sort((a, b) => heaviness(a) - heaviness(b));
  }
}
