// The status page in a real browser (headless Chromium driven by playwright-core): it shows every
// server as it comes up, why one is not (its stderr, a skipped config entry, a refused reload),
// keeps server-written text inert, and asks for a token when auth is on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RunningSwitchboard } from '../../src/index.js';
import { FAILING, ROOT, connect, fixture, startProxy, waitFor } from './helpers.js';

/** Debian's package; the README's install step (and .ci/run) installs it. */
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.join(ROOT, 'test-artifacts');
/** A server name that would run script if the page ever put server text into markup. */
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

async function launch(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium`);
  // Root in CI and containers: Chromium's sandbox needs user namespaces we may not have.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'], timeout: 30_000 });
}

/** Waits until the servers table shows each of `names` in state ready. (Locators only: this project's types have no DOM.) */
async function serversReady(page: Page, names: readonly string[]): Promise<void> {
  await waitFor(
    async () => {
      const rows = await page.locator('#servers tbody tr').all();
      const shown = await Promise.all(rows.map(async (row) => (await row.locator('td').allTextContents()).slice(0, 2)));
      return names.every((name) => shown.some(([server, state]) => server === name && state === 'ready'));
    },
    15_000,
    `servers ${names.join(', ')} ready on the page`,
  );
}

describe('status page in Chromium', () => {
  let browser: Browser;
  let proxy: RunningSwitchboard;
  const SERVERS = ['fx', 'two', HOSTILE];

  beforeAll(async () => {
    browser = await launch();
    proxy = await startProxy({
      mcpServers: { fx: fixture('fx'), two: fixture('two'), [HOSTILE]: fixture('hostile', { alias: 'hostile' }) },
      profiles: { reader: { tools: { allow: ['fx__*'] } } },
    });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
  });

  it('shows every configured server ready, sessions and findings, with server text kept as text', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    try {
      await page.goto(`${proxy.url}/`, { timeout: 15_000 });
      await serversReady(page, SERVERS);
      expect(await page.locator('#findings-empty').textContent()).toBe('none yet');
      expect(await page.locator('#ready').textContent()).toBe('ready');

      // A client's session and calls show up on the next refresh (every 2 s), as does a finding the sanitizer reports.
      const client = await connect(proxy, { path: '/mcp?profile=reader' });
      await client.callTool({ name: 'fx__echo', arguments: { text: 'hello' } });
      await client.callTool({ name: 'fx__no_such_tool', arguments: {} }).catch(() => undefined);
      proxy.core.findings.record({ server: 'fx', tool: 'echo', rule: 'zero-width', action: 'strip' });
      await page.locator('#findings tbody tr', { hasText: 'zero-width' }).waitFor({ timeout: 10_000 });
      await page.locator('#total-sessions', { hasText: '1' }).waitFor({ timeout: 10_000 });
      expect(await page.locator('#total-sessions').textContent()).toBe('1');
      expect(await page.locator('#by-profile tbody').textContent()).toContain('?profile=reader');
      expect(Number(await page.locator('#total-requests').textContent())).toBeGreaterThanOrEqual(3);
      expect(await page.locator('#total-errors').textContent()).toBe('1');
      expect(await page.locator('#findings-empty').isHidden()).toBe(true);
      const finding = await page.locator('#findings tbody tr').first().locator('td').allTextContents();
      expect(finding.slice(1)).toEqual(['fx', 'echo', 'zero-width', 'strip']);

      // The hostile name is on the page as literal text and nothing of it ran.
      expect(await page.locator('#servers tbody tr td.name').allTextContents()).toContain(HOSTILE);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(await page.locator('#servers img').count()).toBe(0);
      expect(problems).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'status-page.png'), fullPage: true });

      const dark = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'dark' });
      const darkPage = await dark.newPage();
      await darkPage.goto(`${proxy.url}/ui`, { timeout: 15_000 });
      await serversReady(darkPage, SERVERS);
      await darkPage.screenshot({ path: path.join(ARTIFACTS, 'status-page-dark.png'), fullPage: true });
      await dark.close();
      await client.close();
    } finally {
      await context.close();
    }
    expect(fs.statSync(path.join(ARTIFACTS, 'status-page.png')).size).toBeGreaterThan(1000);
  });
});

describe('status page when a server is down', () => {
  let browser: Browser;
  let proxy: RunningSwitchboard;
  /** The failing server's last words, with markup that would run if the page ever parsed them. */
  const LAST_WORDS = 'Error: API_KEY <img src=x onerror="window.__pwned=2"> is not set';

  beforeAll(async () => {
    browser = await launch();
    const bad = { command: process.execPath, args: [FAILING], env: { FAIL_NOISE_LINES: '6', FAIL_LAST: LAST_WORDS }, restart: { initialDelayMs: 60_000, maxDelayMs: 60_000 } };
    // far: a remote server nothing listens for (port 1), its URL carrying secrets the page must not show.
    const far = { url: 'http://probe:pw-secret-1@127.0.0.1:1/mcp?key=query-secret-2', restart: { initialDelayMs: 60_000, maxDelayMs: 60_000 } };
    proxy = await startProxy({ mcpServers: { fx: fixture('fx'), bad, far, remote: { url: 'tools.example/mcp' } } }, { waitReady: false });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
  });

  it("shows the failing server's last stderr lines as text, remote servers marked with their URL, the skipped entry with its reason, and a refused reload until one succeeds", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      proxy.reloadRefused('/etc/switchboard/proxy.config.json: line 3, column 1: invalid JSON: <b>unexpected end</b>');
      await page.goto(`${proxy.url}/`, { timeout: 15_000 });
      const bad = page.locator('#servers tbody tr[data-server="bad"]');
      await bad.locator('pre.stderr', { hasText: 'is not set' }).waitFor({ timeout: 15_000 });
      expect(await bad.locator('td.error').first().textContent()).toContain('exited with code 1');
      // The last 5 lines it wrote, oldest first, the last one as written.
      expect((await bad.locator('pre.stderr').textContent())?.split('\n')).toEqual(['npm notice line 3 of 6', 'npm notice line 4 of 6', 'npm notice line 5 of 6', 'npm notice line 6 of 6', LAST_WORDS]);
      // A remote server: marked so, its URL under its name without user info or query values, and why it is down.
      const far = page.locator('#servers tbody tr[data-server="far"]');
      await far.locator('td.error', { hasText: 'ECONNREFUSED' }).waitFor({ timeout: 15_000 });
      expect(await far.locator('td.name .kind').textContent()).toBe('remote');
      expect(await far.locator('td.name .url').textContent()).toBe('http://127.0.0.1:1/mcp?key=…');
      expect(await far.textContent()).not.toMatch(/pw-secret-1|query-secret-2|probe/);
      expect(await page.locator('#servers tbody tr[data-server="fx"] td.name .kind').count()).toBe(0);
      const remote = page.locator('#servers tbody tr[data-server="remote"]');
      expect(await remote.locator('td.name .kind').textContent()).toBe('remote');
      const cells = await remote.locator('td').allTextContents();
      expect(cells.slice(1, 7)).toEqual(['skipped', '', '', '', '', '']);
      expect(cells[7]).toContain('expected an absolute http or https URL');
      expect(await page.locator('#ready').textContent()).toBe('not ready');
      // Of the servers that run (a skipped entry never does), one is ready: fx, once its start is
      // over (the proxy was not waited for, and the failures above show up before fx is listed).
      await serversReady(page, ['fx']);
      expect(await page.locator('#total-servers').textContent()).toBe('1 / 3');

      const banner = page.locator('#banner-text');
      expect(await banner.textContent()).toMatch(/^Config reload refused at .+ \(the running config stays\): .*invalid JSON: <b>unexpected end<\/b>$/);
      expect(await page.locator('#servers img, #banner b').count()).toBe(0);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      await page.screenshot({ path: path.join(ARTIFACTS, 'status-page-failing.png'), fullPage: true });

      proxy.reload(proxy.core.config);
      await page.locator('#banner').waitFor({ state: 'hidden', timeout: 10_000 });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('status page with auth on', () => {
  const TOKEN = `page-${randomBytes(18).toString('base64url')}`;
  const READER = `reader-${randomBytes(18).toString('base64url')}`;
  let browser: Browser;
  let proxy: RunningSwitchboard;

  beforeAll(async () => {
    browser = await launch();
    // As in the README's team example: a defaultProfile, so the operator's token opts out with "profile": null.
    proxy = await startProxy(
      {
        mcpServers: { fx: fixture('fx'), two: fixture('two') },
        profiles: { reader: { tools: { allow: ['fx__*'] } } },
        defaultProfile: 'reader',
        auth: {
          tokens: [
            { name: 'ops', tokenEnv: 'SB_TEST_PAGE_TOKEN', profile: null },
            { name: 'reader', tokenEnv: 'SB_TEST_PAGE_READER' },
          ],
        },
      },
      { env: { ...process.env, SB_TEST_PAGE_TOKEN: TOKEN, SB_TEST_PAGE_READER: READER } },
    );
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
  });

  it('asks for a token, refuses a wrong one, then shows the servers', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    try {
      await page.goto(`${proxy.url}/`, { timeout: 15_000 });
      await page.locator('#token-form').waitFor({ state: 'visible', timeout: 10_000 });
      expect(await page.locator('#content').isHidden()).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, 'status-page-token.png') });

      await page.locator('#token').fill('not-the-right-token-at-all');
      await page.locator('#token').press('Enter');
      await page.locator('#banner-text', { hasText: 'not accepted' }).waitFor({ timeout: 10_000 });
      expect(await page.locator('#token-form').isVisible()).toBe(true);

      // A valid token bound to a profile: the page says why it cannot show the status instead of retrying.
      await page.locator('#token').fill(READER);
      await page.locator('#token').press('Enter');
      await page.locator('#banner-text', { hasText: 'may not read the status' }).waitFor({ timeout: 10_000 });
      expect(await page.locator('#banner-text').textContent()).toContain('needs an admin token');
      expect(await page.locator('#token-form').isVisible()).toBe(true);

      await page.locator('#token').fill(TOKEN);
      await page.locator('#token-form button[type=submit]').click();
      await serversReady(page, ['fx', 'two']);
      expect(await page.locator('#token-form').isHidden()).toBe(true);
      // Kept for this tab only, and used on every refresh.
      expect(await page.evaluate("sessionStorage.getItem('switchboard-status-token')")).toBe(TOKEN);
    } finally {
      await context.close();
    }
  });
});
