import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import {
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  chromium,
  type Page,
} from 'playwright-core';

/**
 * Debian's chromium (`.ci/run` installs it), driven by playwright-core: never a browser build
 * downloaded by a test tool. CHROMIUM_PATH points elsewhere on a developer's machine.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Why the browser suite cannot run here, or null when it can. Without chromium a developer gets
 * this line instead of a failure; CI always installs it. On the PostgreSQL pass of CI the suite
 * would only repeat the PGlite pass (the server under test always runs on PGlite, as the
 * browser tests are meant to), so it runs once.
 */
export const browserSuiteSkipReason: string | null = !existsSync(CHROMIUM_PATH)
  ? `browser tests skipped: no chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`
  : process.env.DATABASE_URL
    ? 'browser tests skipped on the PostgreSQL pass: they run against PGlite, in the PGlite pass'
    : null;

/**
 * The flags of node-svc.md: without the background-networking ones chromium tries to reach
 * Google's hosts at every start, and this machine's closed network refuses each attempt.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** How long one step (a click, something to appear) may take before the test fails. */
export const STEP_TIMEOUT_MS = 30_000;

/** A page and what went wrong on it that the page itself would not show. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** CSP violations and uncaught errors, in the order they happened. */
  problems: string[];
}

/**
 * The browser reports a CSP violation twice over: as a console error ("Refused to … because it
 * violates the following Content Security Policy directive") and as a `securitypolicyviolation`
 * event, which the init script below turns into a console error of its own so that no kind of
 * violation (a style, a worker, a frame) can go unheard.
 */
const CSP_WATCH = `document.addEventListener('securitypolicyviolation', (event) => {
  const where = event.sourceFile ? ' in ' + event.sourceFile + ':' + event.lineNumber + ':' + event.columnNumber : '';
  const sample = event.sample ? ' ("' + event.sample + '")' : '';
  console.error('CSP violation: ' + event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline code') + where + sample);
});`;

function problemOf(message: ConsoleMessage): string | null {
  const text = message.text();
  if (
    /Content Security Policy|CSP violation|Refused to (load|execute|apply|connect|frame)/i.test(
      text,
    )
  )
    return `CSP: ${text}`;
  // The browser logs every 4xx answer as "Failed to load resource": the journeys cause them on
  // purpose (a wrong password, another tenant's record), and the page shows what they mean.
  if (message.type() === 'error' && !text.startsWith('Failed to load resource'))
    return `console error: ${text}`;
  return null;
}

export interface PageOptions {
  baseURL: string;
  /**
   * The client address the server sees (it trusts 127.0.0.1 as a proxy): every context its own,
   * so that one journey's sign-ins never use up another's per-IP allowance.
   */
  clientAddress: string;
  /** The browser's language; Irish English unless a test is about another (docs/decisions/0050-irish-dates.md). */
  locale?: string;
  /** The browser's time zone; Irish time unless a test is about another. */
  timezoneId?: string;
}

/**
 * A fresh context (no cookies) with one page, in Irish English and Irish time unless told
 * otherwise, watched for CSP and errors.
 */
export async function openWatchedPage(
  browser: Browser,
  { baseURL, clientAddress, locale = 'en-IE', timezoneId = 'Europe/Dublin' }: PageOptions,
): Promise<WatchedPage> {
  const context = await browser.newContext({
    baseURL,
    locale,
    timezoneId,
    viewport: { width: 1280, height: 860 },
    // No transitions: axe must judge a notification or dialog as it stands, not half faded in.
    reducedMotion: 'reduce',
    extraHTTPHeaders: { 'x-forwarded-for': clientAddress },
  });
  // Generous for a loaded 2-core machine running other suites; a step that never happens still
  // fails, only later.
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  await context.addInitScript(CSP_WATCH);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    const problem = problemOf(message);
    if (problem) problems.push(`${problem} (on ${page.url()})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message} (on ${page.url()})`));
  return { page, context, problems };
}

/** Serious and critical axe-core findings on the page as it is now, one line each. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  // AxeBuilder injects axe-core with page.evaluate, which the page's CSP does not govern. Legacy
  // mode runs axe in the page itself: the default opens a blank page of its own for every check
  // to gather frames' results in, and our pages have no frames. Only violations are read, so
  // only they are gathered. Together these took axe from 33 s to 13 s in two journeys' 16 checks
  // (docs/benchmarks.md, CI).
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => {
      // Where, and axe's own reason for the first few elements (for contrast: the two colours
      // and the ratio), so that a failure says what to change.
      const nodes = violation.nodes.slice(0, 3).map((node) => {
        const reason = node.any[0]?.message ?? node.all[0]?.message ?? node.none[0]?.message;
        return `${node.target.join(' ')}${reason ? ` (${reason})` : ''}`;
      });
      const more = violation.nodes.length > 3 ? ` | and ${violation.nodes.length - 3} more` : '';
      return `${violation.impact} ${violation.id}: ${violation.help} — ${nodes.join(' | ')}${more}`;
    });
}

export const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

/** Kept as a test artefact (git-ignored), for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
