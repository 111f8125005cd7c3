/**
 * Accessibility in Chromium: axe (WCAG 2.1 A and AA rules) on every screen of the registry's sidebar,
 * the screens without an entry (/subcategory), the dashboard, sign-in and an editing panel, as an
 * admin and as a seller, in the light theme and (for a sample) the dark one; no serious or critical
 * violation passes. Keyboard: a table cell's value and the products' image list open with Enter or
 * Space as a double-click opens them. Phones (390×844): no screen is wider than the window.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { loadRegistry } from '../../server/registry';
import { DASHBOARD } from '../../contract';
import { DEMO, sidebar, signIn, signedIn } from './helpers';
import { en } from '../../i18n/en';

const registry = await loadRegistry();

/** Every admin sidebar path (the dashboard first), then the admin screens that have no entry. */
const ADMIN_PATHS = [
  ...registry.access.map((entry) => entry.path),
  ...registry.resources.flatMap((r) => (!r.menu && r.screenPath ? [r.screenPath] : [])),
];
const SELLER_PATHS = registry.sellerTokens.map((token) => [...registry.access, ...registry.sellerPages].find((e) => e.token === token)!.path);
const BUYER_PATHS = registry.buyerTokens.map((token) => [DASHBOARD, ...registry.buyerEntries].find((e) => e.token === token)!.path);

/** Requests in flight per page, so a screen counts as loaded once none has been pending for a moment. */
const traffic = new WeakMap<Page, { pending: number; last: number }>();

function track(page: Page) {
  const state = { pending: 0, last: Date.now() };
  traffic.set(page, state);
  // A server-sent event stream (live chat) stays open by design: it is not a screen loading.
  const counted = (request: Request) => request.resourceType() !== 'eventsource';
  page.on('request', (request) => counted(request) && ((state.pending += 1), (state.last = Date.now())));
  const done = (request: Request) => counted(request) && ((state.pending -= 1), (state.last = Date.now()));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/** Waits until the screen has loaded: no request pending for 300 ms, no spinner. */
async function settled(page: Page) {
  const state = traffic.get(page)!;
  await expect.poll(() => state.pending === 0 && Date.now() - state.last > 300, { intervals: [100] }).toBe(true);
  await expect(page.locator('[role="progressbar"]')).toHaveCount(0);
}

/**
 * Waits until every transition and finite animation on the page has ended, so colours are read as
 * they stay (a dialog fading in is partly transparent for a moment).
 */
async function still(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Serious and critical axe violations of the page, one readable line each. Colour contrast (the
 * slowest rule) is checked where `contrast` says: a sample of screens in each theme.
 */
async function violations(page: Page, contrast = true): Promise<string[]> {
  await still(page);
  const axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const result = await (contrast ? axe : axe.disableRules(['color-contrast'])).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Opens a screen as its user would: from the sidebar when it has an entry there. */
async function visit(page: Page, path: string) {
  const link = sidebar(page).locator(`a[href="${path}"]`);
  if (await link.count()) await link.first().click();
  else await page.goto(path);
  await expect(page).toHaveURL((url) => url.pathname === path);
  await settled(page);
}

/** Screens whose colour contrast is checked too (the rest: every other rule). */
const CONTRAST_SAMPLE = new Set(['/', '/shops', '/products', '/category', '/packages', '/chat-logs']);

async function audit(page: Page, paths: readonly string[], prefix = ''): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const path of paths) {
    const start = Date.now();
    await visit(page, path);
    const list = await violations(page, prefix !== '' || CONTRAST_SAMPLE.has(path));
    if (process.env.A11Y_TIMES) console.log(path, Date.now() - start);
    if (list.length) found[prefix + path] = list;
    if (list.length && process.env.A11Y_TIMES) console.log(list);
  }
  return found;
}

/** Opens the first record of a list screen in its editing panel. */
async function openFirstRecord(page: Page, path: string) {
  await visit(page, path);
  await page.getByRole('table').getByRole('button', { name: /^Open record/ }).first().press('Enter');
  await expect(page.getByRole('heading', { name: /^Editing/ })).toBeVisible();
  await settled(page);
}

test.beforeEach(({ page }) => track(page));

test('sign-in has no serious accessibility violation', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test('every admin screen, and an editing panel', async ({ page }) => {
  test.setTimeout(240_000);
  await signedIn(page, DEMO.admin);
  const found = await audit(page, ADMIN_PATHS);
  await openFirstRecord(page, '/shops');
  const panel = await violations(page);
  if (panel.length) found['/shops/<id>'] = panel;
  expect(found).toEqual({});
});

test('the dashboard, a list, an editing panel and a dialog in the dark theme', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page, DEMO.admin);
  await page.getByRole('button', { name: 'Toggle light/dark mode' }).click();
  await expect(page.locator('html')).toHaveCSS('color-scheme', 'dark');
  const found = await audit(page, ['/', '/orders'], 'dark ');
  await openFirstRecord(page, '/products');
  const panel = await violations(page);
  if (panel.length) found['dark /products/<id>'] = panel;
  await page.getByRole('table').getByRole('button', { name: 'double click' }).first().dblclick();
  await expect(page.getByRole('dialog')).toBeVisible();
  const dialog = await violations(page);
  if (dialog.length) found['dark image dialog'] = dialog;
  expect(found).toEqual({});
  // The choice is remembered: a new visit opens dark.
  await page.reload();
  await expect(page.locator('html')).toHaveCSS('color-scheme', 'dark');
});

test('every seller screen, and the account page', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page, DEMO.seller);
  expect(await audit(page, [...SELLER_PATHS, '/account'])).toEqual({});
});

test('every buyer screen, colour contrast included', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page, DEMO.buyer);
  expect(await audit(page, BUYER_PATHS, 'buyer ')).toEqual({});
});

test('a cell’s whole value and the image list open from the keyboard', async ({ page }) => {
  await signedIn(page, DEMO.admin);
  await page.goto('/products');
  const table = page.getByRole('table');
  const link = table.getByRole('row').nth(1).getByRole('button', { name: 'double click' });
  // The image cell's own code arrives after the rows: a person sees the link before reaching for it.
  await expect(link).toBeVisible();
  // Tab reaches the row's first cell; the arrow keys walk along the row to the Name cell.
  const first = table.getByRole('button', { name: /^Open record/ }).first();
  await first.focus();
  const header = await table.getByRole('columnheader').allTextContents();
  const nameColumn = header.findIndex((h) => h.trim() === 'Name');
  const imageColumn = header.findIndex((h) => h.trim() === 'Image');
  const firstColumn = await first.evaluate((el) => [...el.closest('tr')!.children].indexOf(el.closest('td')!));
  for (let i = firstColumn; i < imageColumn; i++) await page.keyboard.press('ArrowRight');
  await expect(link).toBeFocused();
  await page.keyboard.press('Space');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Images of');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  for (let i = imageColumn; i < nameColumn; i++) await page.keyboard.press('ArrowRight');
  const name = (await table.getByRole('row').nth(1).getByRole('cell').nth(nameColumn).textContent())!.trim();
  await expect(page.locator(':focus')).toHaveText(name);
  await page.keyboard.press('Enter');
  await expect(dialog).toContainText(name);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  const below = (await table.getByRole('row').nth(2).getByRole('cell').nth(nameColumn).textContent())!.trim();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(':focus')).toHaveText(below);
  await page.keyboard.press(' ');
  await expect(dialog).toContainText(below);
});

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('no screen is wider than the window; the sidebar folds away', async ({ page }) => {
    test.setTimeout(90_000);
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await expect(menuButton).toBeVisible();
    // The dashboard and the first screens of the sidebar (the widest tables among them), another
    // list, a form and the account page.
    const paths = [...registry.access.slice(0, 8).map((entry) => entry.path), '/users', '/shops/create', '/account'];
    const wide: Record<string, number> = {};
    for (const path of paths) {
      await page.goto(path);
      await settled(page);
      if (process.env.A11Y_SHOTS) await page.screenshot({ path: `${process.env.A11Y_SHOTS}/phone${path.replace(/\//g, '_')}.png` });
      const { scroll, inner } = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
      if (scroll > inner) wide[path] = scroll;
    }
    expect(wide).toEqual({});
    // Every control of the top bar, the user menu last, is within the window (the bar clips what overflows).
    const cut = await page.getByRole('banner').locator('button, a').evaluateAll((controls) =>
      controls
        .filter((control) => control.getBoundingClientRect().width > 0 && control.getBoundingClientRect().right > window.innerWidth)
        .map((control) => control.getAttribute('aria-label') || control.textContent),
    );
    expect(cut).toEqual([]);
    await expect(page.getByRole('banner').getByRole('button', { name: en.shell.user_menu })).toBeInViewport();
    // A compact list (status and total on the right) keeps its contrast.
    await page.goto('/orders');
    await settled(page);
    expect(await violations(page)).toEqual([]);
    // The search page, which draws its own box on a phone, with results.
    await page.goto('/search?q=Product');
    await expect(page.getByRole('main').getByRole('searchbox', { name: en.resources.users.search.label })).toHaveValue('Product');
    await settled(page);
    expect(await violations(page)).toEqual([]);
    // The sidebar is folded away until the menu button opens it.
    await expect(sidebar(page).getByRole('menuitem', { name: 'Shops', exact: true })).not.toBeInViewport();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(sidebar(page).getByRole('menuitem', { name: 'Shops', exact: true })).toBeInViewport();
  });
});
