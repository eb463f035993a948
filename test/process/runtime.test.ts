import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const major = (version: string) => Number(version.split('.')[0]);

/** The major version of package.json's `engines.node` (`>=24`). */
function requiredMajor(): number {
  const { engines } = JSON.parse(readFileSync('package.json', 'utf8')) as {
    engines: { node: string };
  };
  const match = /^>=(\d+)$/.exec(engines.node);
  if (!match?.[1]) throw new Error(`engines.node is not of the form >=N: ${engines.node}`);
  return Number(match[1]);
}

// On a machine whose own Node is older, npm scripts run the `node` package's binary from
// node_modules/.bin. Started any other way (a bare node_modules/.bin/vitest takes the system's
// node), the tests would pass or fail on a runtime the service never runs on.
describe('the Node.js the tests run on', () => {
  it('is the major version package.json requires', () => {
    expect(major(process.versions.node)).toBeGreaterThanOrEqual(requiredMajor());
  });

  it('is also what `node` on PATH starts, as tsx and package scripts do', () => {
    const onPath = execFileSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
    expect(onPath.trim()).toBe(process.versions.node);
  });
});
