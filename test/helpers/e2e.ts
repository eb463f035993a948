import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  browserSuiteSkipReason,
  launchChromium,
  openWatchedPage,
  STEP_TIMEOUT_MS,
  screenshot,
  seriousAccessibilityViolations,
  type WatchedPage,
} from './browser.js';
import { ApiClient, type BuiltServer, type Credentials, startBuiltServer } from './built-server.js';
import { uniqueClientAddress } from './clients.js';

export { browserSuiteSkipReason };

if (browserSuiteSkipReason) console.warn(browserSuiteSkipReason);

/** Long enough for a journey of several pages on a 2-core machine running other suites too. */
export const JOURNEY_TIMEOUT = 180_000;

/** The language and time zone of a browser context (both Irish by default). */
export interface Browsing {
  locale?: string;
  timezoneId?: string;
}

export interface E2e {
  readonly baseUrl: string;
  readonly server: BuiltServer;
  /**
   * A signed-out page in a fresh context, from a client address of its own unless given one, in
   * Irish English and Irish time unless `browsing` names another language or time zone.
   */
  open(clientAddress?: string, browsing?: Browsing): Promise<WatchedPage>;
  /**
   * A fresh signed-out page that arrives as a person does, at the root or at a deep link they were
   * sent (`startAt`), is sent to sign in, signs in through the form and lands where it set out for.
   */
  openAs(account: Credentials, startAt?: string, browsing?: Browsing): Promise<WatchedPage>;
  /** The API, signed in as this account, for seeding what a journey does not create itself. */
  api(account: Credentials): Promise<ApiClient>;
  /**
   * A main page, once it has settled: a screenshot kept as an artefact, then axe-core, which
   * must find nothing serious or critical (judged when the test ends).
   */
  checkPage(page: Page, name: string): Promise<void>;
}

/**
 * One server and one browser for the test file (inside a describe that skips when
 * browserSuiteSkipReason says so). After every test, each page it opened is closed and must have
 * seen no CSP violation and no uncaught error.
 */
export function useE2e(
  file: string,
  /**
   * More environment for the server, read when it starts (after the file's earlier beforeAll
   * hooks, so that a stand-in it points at is already listening).
   */
  serverEnv: () => Record<string, string> = () => ({}),
): E2e {
  let server: BuiltServer | undefined;
  let browser: Browser | undefined;
  const pages: WatchedPage[] = [];
  // One session per account for the file: each sign-in beyond five in fifteen minutes is slowed
  // down by the account throttle, and one token serves any number of contexts.
  const sessions = new Map<string, Promise<ApiClient>>();
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the e2e server and browser are not started');
    return value;
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startBuiltServer(serverEnv()), launchChromium()]);
  }, 120_000);

  // Findings are gathered while a journey goes on and judged after it, so that one run reports
  // every page's findings rather than the first page's alone.
  const accessibility: string[] = [];
  afterEach(async () => {
    const finished = pages.splice(0);
    const problems = finished.flatMap((watched) => watched.problems);
    const violations = accessibility.splice(0);
    await Promise.all(finished.map((watched) => watched.context.close()));
    // One assertion, so that a failure shows both lists.
    expect(
      {
        'CSP violations and uncaught errors': problems,
        'serious or critical axe-core': violations,
      },
      'what the browser saw',
    ).toEqual({ 'CSP violations and uncaught errors': [], 'serious or critical axe-core': [] });
  });

  afterAll(async () => {
    sessions.clear();
    await browser?.close();
    await server?.stop();
  }, 60_000);

  const e2e: E2e = {
    get baseUrl() {
      return need(server).baseUrl;
    },
    get server() {
      return need(server);
    },
    async open(clientAddress = uniqueClientAddress(), browsing = {}) {
      const watched = await openWatchedPage(need(browser), {
        baseURL: need(server).baseUrl,
        clientAddress,
        ...browsing,
      });
      pages.push(watched);
      return watched;
    },
    async openAs(account, startAt = '/', browsing = {}) {
      const watched = await e2e.open(undefined, browsing);
      await signInThroughForm(watched.page, account, startAt);
      return watched;
    },
    api(account) {
      let session = sessions.get(account.email);
      if (!session) {
        session = ApiClient.signIn(need(server).baseUrl, account);
        sessions.set(account.email, session);
        session.catch(() => sessions.delete(account.email));
      }
      return session;
    },
    async checkPage(page, name) {
      await settled(page);
      // The pointer rests where the last click left it; a hover colour there is not the page's.
      await page.mouse.move(0, 0);
      await screenshot(page, `${file}-${name}`);
      for (const violation of await seriousAccessibilityViolations(page)) {
        accessibility.push(`${name}: ${violation}`);
      }
    },
  };
  return e2e;
}

/** Until no spinner ("Loading…") is on screen: what a person waits for before reading the page. */
export async function settled(page: Page): Promise<void> {
  await expect
    .poll(() => page.getByLabel(/^Loading/).count(), { timeout: STEP_TIMEOUT_MS })
    .toBe(0);
}

/** Fails unless the element shows up (Playwright's auto-waiting), with what was looked for. */
export async function see(locator: Locator, what?: string): Promise<Locator> {
  try {
    await locator.first().waitFor({ state: 'visible' });
  } catch (error) {
    throw new Error(`expected to see ${what ?? locator.toString()}: ${(error as Error).message}`);
  }
  return locator.first();
}

/** The text of the element once it shows up, as a person would read it out. */
export async function shownText(locator: Locator, what?: string): Promise<string> {
  const element = await see(locator, what);
  return ((await element.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** Fails unless the element goes away. */
export async function seeNo(locator: Locator, what?: string): Promise<void> {
  await expect
    .poll(() => locator.count(), {
      timeout: STEP_TIMEOUT_MS,
      message: `expected no ${what ?? locator}`,
    })
    .toBe(0);
}

/**
 * The form control whose label reads exactly `label`: a required field's label ends in an
 * asterisk, and a looser match would also find buttons such as "Toggle password visibility".
 */
export function field(page: Page | Locator, label: string): Locator {
  // Only the control itself: a combobox's list of options carries the same label.
  return page
    .getByLabel(new RegExp(`^${RegExp.escape(label)}( \\*)?$`))
    .and(page.locator('input, textarea, select, button'));
}

/**
 * Opens `startAt` signed out, as a person does: the root address they were given, or a deep link
 * from an e-mail. The page must send them to sign in; resolves on the sign-in page.
 */
export async function arriveSignedOut(page: Page, startAt = '/'): Promise<void> {
  await page.goto(startAt);
  await page.waitForURL((url) => url.pathname === '/signin');
  await see(page.getByRole('heading', { name: 'Sign in' }), 'the sign-in page');
}

/**
 * A person's first sign-in: they arrive at `startAt` signed out, are sent to the sign-in form,
 * fill it in, and are taken on. Resolves once the page has reached the role's start page (from
 * the root) or the deep link they opened.
 */
export async function signInThroughForm(
  page: Page,
  { email, password }: Credentials,
  startAt = '/',
): Promise<void> {
  await arriveSignedOut(page, startAt);
  await field(page, 'E-mail address').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (startAt === '/') {
    // `/` is only a waypoint: it sends each role on to its own start page.
    await page.waitForURL((url) => url.pathname !== '/signin' && url.pathname !== '/');
  } else {
    await page.waitForURL((url) => `${url.pathname}${url.search}` === startAt);
  }
  // Signed in for good: the layout's sign-out button, not a bounce back to the form.
  await see(page.getByRole('button', { name: 'Sign out', exact: true }), 'the signed-in layout');
}
