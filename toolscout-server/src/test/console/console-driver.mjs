// Drives the web console of a running `toolscout serve` in Debian's headless Chromium, as a person would: signs
// in with a key, uses one page, takes a screenshot, and prints what it read as one JSON document on stdout.
// ConsoleEndToEndTest (JUnit) starts the server, runs one scenario per test, and asserts on that JSON.
//
//   node console-driver.mjs --base http://127.0.0.1:PORT --key KEY --scenario NAME --shots DIR [options]
//
// Scenarios: catalog, reader-catalog, try, servers (--server NAME --kill-pid PID), approve (--approval ID),
// approve-run (--approval ID --run RUN), server-toggle (--server NAME --action Disable|Enable --expect STATUS),
// audit (--approval ID --status STATUS), usage, keyboard, narrow, loading.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) {
  args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
const base = args.base;
const shots = args.shots;
mkdirSync(shots, { recursive: true });
const TIMEOUT = 90_000;


async function signIn(page, key) {
  await page.goto(base + '/');
  const field = page.getByLabel('API key');
  await field.fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#who').filter({ hasText: /\S/ }).waitFor();
}

async function shot(page, name, full) {
  await page.screenshot({ path: join(shots, name + '.png'), fullPage: full === true });
}

/** Every control without an accessible name: inputs, selects and text areas without a label, empty buttons. */
async function unlabelled(page) {
  return page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
    .filter((el) => {
      if (el.type === 'hidden' || el.closest('[hidden]')) return false;
      const named = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
      if (el.tagName === 'BUTTON') return !named && !el.textContent.trim();
      return !named && (!el.labels || el.labels.length === 0);
    })
    .map((el) => el.outerHTML.substring(0, 120)));
}

/** Text that is a script's mistake, not a word for people: null, undefined, [object Object] (JSON blocks apart). */
async function strayText(page) {
  return page.evaluate(() => {
    const out = [];
    const walk = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const t = n.textContent.trim();
      if (!n.parentElement.closest('pre') && /^(null|undefined|\[object Object\]|NaN)$/.test(t)) {
        out.push(t + ' in <' + n.parentElement.tagName.toLowerCase() + '>');
      }
    }
    return out;
  });
}

async function rows(page, tableCaption) {
  const table = page.locator('table', { has: page.locator('caption', { hasText: tableCaption }) });
  await table.first().waitFor();
  return table.first().locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim())));
}

const SCENARIOS = {
  async catalog(page, o) {
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.locator('h2#cat-results').waitFor();
    o.all_heading = await page.locator('h2#cat-results').innerText();
    await page.getByRole('searchbox', { name: 'Search' }).fill('send an email');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('caption', { hasText: /^Catalog, 1-\d+ of \d+$/ }).waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('tbody tr td:nth-child(8)')]
      .some((td) => td.textContent.trim() !== ''));
    o.rows = await rows(page, 'Catalog,');
    await page.getByRole('button', { name: 'gmail__send_email' }).click();
    await page.getByRole('heading', { name: 'Who can see this tool' }).waitFor();
    o.definition = await page.locator('#details pre.json').first().innerText();
    o.who = await rows(page, 'Principals of the API keys');
    await shot(page, 'catalog');
    // what can this principal see: the reader's view, chosen by the admin
    const as = page.getByLabel('What can this principal see?');
    const option = await as.locator('option', { hasText: 'user rita' }).getAttribute('value');
    await as.selectOption(option);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('h2#cat-results', { hasText: 'visible to user rita' }).waitFor();
    o.as_reader_heading = await page.locator('h2#cat-results').innerText();
    o.as_reader_rows = await rows(page, 'Catalog,');
  },

  async 'reader-catalog'(page, o) {
    await page.getByRole('searchbox', { name: 'Search' }).fill('send an email');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('caption', { hasText: /^Catalog, \d+-\d+ of \d+$/ }).waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('tbody tr td:nth-child(8)')]
      .some((td) => td.textContent.trim() !== ''));
    o.who = await page.locator('#who').innerText();
    o.rows = await rows(page, 'Catalog,');
    o.has_view_as = await page.getByLabel('What can this principal see?').count();
    await shot(page, 'catalog-reader');
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    o.approvals_text = await page.locator('main').innerText();
    o.approve_buttons = await page.getByRole('button', { name: /^Approve/ }).count();
  },

  async try(page, o) {
    await page.getByRole('link', { name: 'Try a message' }).click();
    o.message = await page.getByLabel('Message').inputValue();
    await page.getByRole('button', { name: 'Select tools' }).click();
    await page.getByRole('heading', { name: 'Selection' }).waitFor();
    o.reason = await page.locator('.reason').innerText();
    o.tokens = await page.locator('#tokens').innerText();
    o.selected = await rows(page, 'Selected tools, best first');
    o.left_out = await page.locator('table', { has: page.locator('caption', { hasText: 'left out' }) }).count() > 0
      ? await rows(page, 'left out') : [];
    await page.getByRole('tab', { name: 'Anthropic' }).click();
    await page.locator('#rendered-panel pre.json').waitFor();
    o.anthropic = await page.locator('#rendered-panel pre.json').innerText();
    await page.getByRole('tab', { name: 'Anthropic' }).press('ArrowRight');
    await page.locator('#rendered-panel pre.json', { hasText: '"function"' }).waitFor();
    o.openai = await page.locator('#rendered-panel pre.json').innerText();
    await shot(page, 'try', true);
  },

  async servers(page, o) {
    await page.getByRole('link', { name: 'MCP servers' }).click();
    const row = page.locator(`tr[data-server="${args.server}"]`);
    await row.locator('.badge', { hasText: 'ready' }).waitFor();
    o.before = await row.evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()));
    process.kill(Number(args['kill-pid']), 'SIGKILL');
    // the page refreshes itself: no reload
    await page.locator(`tr[data-server="${args.server}"] .badge`, { hasText: /^(down|connecting|degraded)$/ })
      .waitFor();
    await page.waitForFunction((name) => {
      const tr = document.querySelector(`tr[data-server="${name}"]`);
      return tr && tr.querySelector('.error-text').textContent.trim() !== '';
    }, args.server);
    o.after = await page.locator(`tr[data-server="${args.server}"]`)
      .evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()));
    o.rows = await rows(page, 'Upstream MCP servers');
    o.add_form_labels = await page.locator('form.add-server label').allInnerTexts();
    await shot(page, 'servers', true);
  },

  async approve(page, o) {
    await page.getByRole('link', { name: 'Approvals' }).click();
    const row = page.locator(`#main section:first-of-type tr[data-approval="${args.approval}"]`);
    await row.waitFor();
    o.pending = await row.evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()));
    await shot(page, 'approvals', true);
    await page.getByRole('button', { name: `Approve ${args.approval}`, exact: false }).click();
    const done = page.locator(`table:has(caption:text("Audit trail")) tr[data-approval="${args.approval}"]`);
    await done.waitFor();
    o.decided = await done.evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()));
    o.still_pending = await page.locator(`#main section:first-of-type tr[data-approval="${args.approval}"]`).count();
  },

  // an agent run's pending call: approve it, then watch the run go on to done (the page refreshes by itself)
  async 'approve-run'(page, o) {
    await page.getByRole('link', { name: 'Approvals' }).click();
    const row = page.locator(`#main section:first-of-type tr[data-approval="${args.approval}"]`);
    await row.waitFor();
    o.pending = await row.evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()));
    await shot(page, 'approvals-run-pending', true);
    await page.getByRole('button', { name: `Approve ${args.approval}`, exact: false }).click();
    const done = page.locator(`table:has(caption:text("Audit trail")) tr[data-approval="${args.approval}"]`);
    await done.locator('td.run .badge', { hasText: /^done$/ }).waitFor();
    o.decided = await done.evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()));
    await shot(page, 'approvals-run', true);
    const link = done.getByRole('link', { name: new RegExp(`^Agent run ${args.run}`) });
    o.run_link = await link.getAttribute('href');
    await link.click();
    const linked = page.locator(`tr.linked[data-run="${args.run}"]`);
    await linked.waitFor();
    o.linked_row = await linked.evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()));
  },

  async 'server-toggle'(page, o) {
    await page.getByRole('link', { name: 'MCP servers' }).click();
    const row = () => page.locator(`tr[data-server="${args.server}"]`);
    await row().waitFor();
    await page.getByRole('button', { name: `${args.action} ${args.server}`, exact: true }).click();
    await page.locator(`tr[data-server="${args.server}"] .badge`, { hasText: new RegExp(`^${args.expect}$`) })
      .waitFor();
    o.row = await row().evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()));
    if (args.expect === 'disabled') {
      await shot(page, 'servers-disabled', true);
    }
  },

  async audit(page, o) {
    await page.getByRole('link', { name: 'Approvals' }).click();
    const done = page.locator(`table:has(caption:text("Audit trail")) tr[data-approval="${args.approval}"]`);
    await done.locator('.badge', { hasText: args.status }).waitFor();
    o.decided = await done.evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()));
    await shot(page, 'approvals-audit', true);
  },

  async usage(page, o) {
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    await page.locator('#usage-requests').waitFor();
    o.text = await page.locator('main').innerText();
    o.charts = await page.locator('.chart svg').count();
    o.requests = await page.locator('#usage-requests').innerText();
    o.recall = await page.locator('#usage-recall').innerText();
    o.precision = await page.locator('#usage-precision').innerText();
    o.discovery = await page.locator('#usage-discovery').innerText();
    o.recent = await rows(page, 'Recent requests');
    await shot(page, 'usage');
  },

  async keyboard(page, o) {
    // from the top of the page with the keyboard alone: the skip link, the navigation, a form
    await page.reload();
    await page.locator('h2#cat-results').waitFor();
    await page.keyboard.press('Tab');
    o.first_focus = await page.evaluate(() => document.activeElement.textContent.trim());
    const visited = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const t = await page.evaluate(() => document.activeElement.textContent.trim());
      visited.push(t);
      if (t === 'Try a message') break;
    }
    o.visited = visited;
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Try a message', level: 1 }).waitFor();
    await page.getByLabel('Message').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    o.button_focus = await page.evaluate(() => document.activeElement.textContent.trim());
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Selection' }).waitFor();
    o.selected = await rows(page, 'Selected tools, best first');
    o.focus_visible = await page.evaluate(() => {
      const b = document.querySelector('form.try button[type="submit"]');
      b.focus();
      return getComputedStyle(b).outlineStyle;
    });
  },

  // what a page shows before its data arrives: each answer held back until the page is sampled
  async loading(page, o) {
    const held = async (pattern) => {
      let release;
      const gate = new Promise((r) => { release = r; });
      // once released, every request of the pattern passes at once (the route stays, its gate open)
      await page.route(pattern, async (route) => { await gate; await route.continue(); });
      return release;
    };
    const sample = () => page.evaluate(() => {
      const results = document.querySelector('section.results');
      return {
        main: document.querySelector('main').innerText.trim(),
        results: results ? results.innerText.trim() : null,
        tables: document.querySelectorAll('main table').length,
        heading: document.querySelector('h2#cat-results') ? document.querySelector('h2#cat-results').innerText : '',
        busy: document.querySelectorAll('main [aria-busy="true"]').length,
      };
    });
    // the first load (the key is kept for the tab): who the key is has not answered yet
    const whoami = await held('**/v1/whoami');
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.locator('main').waitFor();
    await page.waitForTimeout(300);
    o.first_load = await sample();
    await whoami();
    await page.locator('h2#cat-results').waitFor();
    // the catalog page, drawn (its search form is there) while /v1/catalog has not answered
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.locator('main h1', { hasText: 'Usage' }).waitFor();
    const catalog = await held('**/v1/catalog?*');
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.locator('form.filters').waitFor();
    o.catalog_while = await sample();
    await shot(page, 'catalog-loading');
    await catalog();
    await page.locator('h2#cat-results').waitFor();
    o.catalog_after = await sample();
  },

  async narrow(page, o) {
    o.pages = {};
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [link, name] of [['Catalog', 'catalog'], ['Try a message', 'try'], ['MCP servers', 'servers'],
      ['Approvals', 'approvals'], ['Usage', 'usage']]) {
      await page.getByRole('link', { name: link }).click();
      await page.locator('main h1').waitFor();
      await page.waitForFunction(() => !document.querySelector('main').innerText.startsWith('Loading'));
      o.pages[name] = await page.evaluate(() => ({
        // the page itself never scrolls sideways; wide tables scroll inside their own box
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        heading: document.querySelector('main h1').textContent,
      }));
      if (name === 'catalog') {
        await shot(page, 'catalog-narrow');
      }
    }
  },
};

// after SCENARIOS is defined
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  // the machine has no network but loopback: no background connections, no sandbox as root
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
const out = { scenario: args.scenario, console_errors: [], page_errors: [], unlabelled: [], stray_text: [] };
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(TIMEOUT);
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') out.console_errors.push(m.text());
  });
  page.on('pageerror', (e) => out.page_errors.push(String(e)));
  await signIn(page, args.key);
  await SCENARIOS[args.scenario](page, out);
  out.unlabelled = await unlabelled(page);
  out.stray_text = await strayText(page);
  out.url = page.url();
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out) + '\n');
