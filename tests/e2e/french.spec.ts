/**
 * The console in French, in Chromium: the language switch on the public pages and in the top bar
 * (remembered across reloads), then every screen of the admin sidebar, read from the registry,
 * plus the public pages and an editing panel: no English string of the console (i18n/en.ts or
 * react-admin's) is left on screen. Data (table cells, input values) is not read.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import { en } from '../../i18n/en';
import { fr } from '../../i18n/fr';
import { loadRegistry } from '../../server/registry';
import { DEMO } from './helpers';

type Tree = { [key: string]: unknown };
const values = (tree: unknown): string[] =>
  tree !== null && typeof tree === 'object' ? Object.values(tree as Tree).flatMap(values) : typeof tree === 'string' ? [tree] : [];

const englishValues = [...values(en), ...values(englishMessages)];
const frenchValues = new Set([...values(fr), ...values(frenchMessages)]);

/** English strings French never shows: an exact text, or a template (its %{…} parts as wildcards). */
const englishOnly = englishValues
  .flatMap((text) => text.split('||||').map((form) => form.trim()))
  .filter((text) => !frenchValues.has(text) && text.replace(/%\{\w+\}/g, '').replace(/[^A-Za-z]/g, '').length >= 3);
const exact = new Set(englishOnly.filter((text) => !text.includes('%{')));
const templates = englishOnly
  .filter((text) => text.includes('%{'))
  .map((text) => ({
    text,
    pattern: new RegExp(`^${text.split(/%\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+?')}$`, 's'),
  }));

const englishFound = (texts: string[]) =>
  [...new Set(texts)].filter((text) => exact.has(text) || templates.some((t) => t.pattern.test(text)));

/**
 * The visible interface texts of the page: text nodes and the placeholder, aria-label and title of
 * visible elements, leaving out table cells (data) but not the buttons in them.
 */
async function interfaceTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    // A table cell's value is data, also inside the cell's keyboard wrapper (role=button, data-cell-focus);
    // a real button in a cell is interface.
    const isData = (el: Element) => !el.closest('button, [role="button"]:not([data-cell-focus])') && !!el.closest('td, [role="cell"], [role="gridcell"], [data-money]');
    const visible = (el: Element) => (el as HTMLElement).checkVisibility?.({ checkOpacity: true, checkVisibilityCSS: true }) ?? true;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (!parent || !text || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName) || isData(parent) || !visible(parent)) continue;
      found.push(text);
    }
    for (const el of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
      if (isData(el) || !visible(el)) continue;
      for (const name of ['placeholder', 'aria-label', 'title']) {
        const value = el.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    }
    return found;
  });
}

const shots = process.env.FRENCH_SCREENSHOTS;

/** Fails with the English strings the page shows, after saving a screenshot when asked to. */
async function expectFrench(page: Page, name: string) {
  if (shots) await page.screenshot({ path: path.join(shots, `${name.replace(/[^\w-]+/g, '_') || 'root'}.png`), fullPage: true });
  expect(englishFound(await interfaceTexts(page)), `English left on ${name}`).toEqual([]);
}

/**
 * Waits until the screen has loaded its code and its data: no progress shown (the screens' own
 * spinners, and the top bar's, which turns while any query runs).
 */
async function settled(page: Page) {
  await expect(page.getByRole('progressbar')).toHaveCount(0);
}

/** Does `act` (which opens a screen), waits for the screen's first answer from the API, then for it to settle. */
async function openScreen(page: Page, act: () => Promise<void>) {
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith('/api/'));
  await act();
  await answered;
  await settled(page);
}

test('French: the switch is remembered and no English string is left on any screen', async ({ page }) => {
  test.setTimeout(90_000);
  const registry = await loadRegistry();

  await page.goto('/login');
  await expect(page.getByRole('heading', { name: en.auth.login.title })).toBeVisible();
  // The switch's menu is drawn when opened, not kept hidden in the page (it cost every page's first load).
  const languages = page.getByRole('menuitem', { name: 'Français', includeHidden: true });
  await expect(languages).toHaveCount(0);
  await page.locator('[data-language-switch] button').click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(languages).toHaveCount(0);
  await expect(page.getByRole('heading', { name: fr.auth.login.title })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expectFrench(page, 'login');

  // Remembered: a reload opens in French.
  await page.reload();
  await expect(page.getByRole('heading', { name: fr.auth.login.title })).toBeVisible();

  // React-admin's and the console's validation messages: the form sent empty.
  await page.getByRole('button', { name: fr.auth.login.submit }).click();
  await expect(page.getByText(frenchMessages.ra.validation.required).first()).toBeVisible();
  await expectFrench(page, 'login-invalid');

  // A server answer, sent in English, shown in French.
  await page.getByPlaceholder(fr.auth.login.credential_placeholder).fill(DEMO.admin.email);
  await page.getByLabel(fr.auth.password, { exact: false }).first().fill('not-the-password');
  await page.getByRole('button', { name: fr.auth.login.submit }).click();
  await expect(page.getByText(fr.server.wrong_credentials)).toBeVisible();

  await page.getByRole('link', { name: fr.auth.login.no_account }).click();
  await expect(page.getByRole('heading', { name: fr.auth.register.title })).toBeVisible();
  await expectFrench(page, 'register');
  await page.goto('/login');
  await page.getByRole('link', { name: fr.auth.login.forgot_password }).click();
  await expect(page.getByRole('heading', { name: fr.auth.reset.title })).toBeVisible();
  await expectFrench(page, 'forgot-password');

  await page.goto('/login');
  await page.getByPlaceholder(fr.auth.login.credential_placeholder).fill(DEMO.admin.email);
  await page.getByLabel(fr.auth.password, { exact: false }).first().fill(DEMO.admin.password);
  await page.getByRole('button', { name: fr.auth.login.submit }).click();
  const sidebar = page.getByRole('navigation', { name: fr.menu.label });
  await expect(sidebar).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Français' })).toBeVisible();
  await expect(languages).toHaveCount(0);

  // Every screen of the admin sidebar, as the registry lists them.
  expect(registry.access.length).toBeGreaterThan(10);
  for (const entry of registry.access) {
    const label = fr.menu[entry.token as keyof typeof fr.menu];
    expect(typeof label, `French sidebar label of ${entry.token}`).toBe('string');
    // An entry's name ends with its label (a live count, such as waiting chats, may stand before it).
    const item = sidebar.getByRole('menuitem', { name: new RegExp(`${(label as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
    if (new URL(page.url()).pathname === entry.path) await settled(page);
    else await openScreen(page, () => item.click());
    await expect(page).toHaveURL(new RegExp(`${entry.path}$`));
    await expectFrench(page, entry.path);
  }

  // An editing panel: an existing record, saved (the server's answer shown in French), then a new one.
  await openScreen(page, () => sidebar.getByRole('menuitem', { name: fr.menu.shops, exact: true }).click());
  // Any answer of the API ends openScreen's wait (a poll too), and the last screen stays up while the next one's code
  // loads: the row opened must be a shop's, so the shops' title is waited for.
  await expect(page).toHaveURL(/\/shops$/);
  await expect(page.getByRole('banner')).toContainText(fr.menu.shops);
  await openScreen(page, () => page.getByRole('button', { name: /^Ouvrir l'enregistrement / }).first().click());
  await expect(page.getByRole('tab', { name: fr.management.tab_control })).toBeVisible();
  await expectFrench(page, 'shops-edit');
  const description = page.getByRole('textbox', { name: fr.resources.shops.inputs.description, exact: true });
  await description.fill(`${await description.inputValue()} !`);
  await page.getByRole('button', { name: fr.management.save }).click();
  await expect(page.getByText(fr.server.updated.replace('%{title}', fr.server.titles.Shop))).toBeVisible();
  await page.getByRole('tab', { name: fr.management.tab_control }).click();
  await expectFrench(page, 'shops-control');
  // A confirmation dialog, cancelled.
  await page.getByRole('main').getByRole('button', { name: fr.management.delete, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(fr.management.confirm_delete_content);
  await expectFrench(page, 'shops-delete-dialog');
  await dialog.getByRole('button', { name: frenchMessages.ra.action.cancel }).click();
  await expect(dialog).toHaveCount(0);

  await page.getByRole('main').getByRole('button', { name: fr.management.close, exact: true }).click();
  await page.getByRole('button', { name: fr.management.explore }).click();
  await expect(page.getByRole('tab', { name: fr.management.tab_add_edit })).toBeVisible();
  await settled(page);
  await expectFrench(page, 'shops-create');
  await page.getByRole('textbox', { name: fr.resources.shops.inputs.name, exact: true }).fill('Boutique');
  await page.getByRole('button', { name: fr.management.save }).click();
  await expect(page.getByText(frenchMessages.ra.validation.required).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expectFrench(page, 'shops-create-invalid');
});

test("French: a seller's screens, the language remembered from an earlier visit", async ({ page }) => {
  test.setTimeout(90_000);
  const registry = await loadRegistry();
  // As the switch leaves it in react-admin's store.
  await page.addInitScript(() => window.localStorage.setItem('RaStore.locale', JSON.stringify('fr')));
  await page.goto('/login');
  await page.getByPlaceholder(fr.auth.login.credential_placeholder).fill(DEMO.seller.email);
  await page.getByLabel(fr.auth.password, { exact: false }).first().fill(DEMO.seller.password);
  await page.getByRole('button', { name: fr.auth.login.submit }).click();
  const sidebar = page.getByRole('navigation', { name: fr.menu.label });
  await expect(sidebar).toBeVisible();

  const entries = [...registry.access, ...registry.sellerPages];
  for (const token of registry.sellerTokens) {
    const entry = entries.find((e) => e.token === token)!;
    const label = fr.menu.seller[token as keyof typeof fr.menu.seller];
    expect(typeof label, `French seller sidebar label of ${token}`).toBe('string');
    if (new URL(page.url()).pathname === entry.path) await settled(page);
    else await openScreen(page, () => sidebar.getByRole('menuitem', { name: label, exact: true }).click());
    await expect(page).toHaveURL(new RegExp(`${entry.path}$`));
    await expectFrench(page, `seller${entry.path}`);
  }
});

test("French: a server refusal is worded by the message key its answer names", async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('RaStore.locale', JSON.stringify('fr')));
  await page.goto('/login');
  await page.getByPlaceholder(fr.auth.login.credential_placeholder).fill('ben@example.com');
  await page.getByLabel(fr.auth.password, { exact: false }).first().fill('ben12345');
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/user/terminal');
  await page.getByRole('button', { name: fr.auth.login.submit }).click();
  // The demo's blacklisted buyer: the server says it in English and names the key beside it.
  const body = await (await answered).json();
  expect(body).toMatchObject({ status: false, query: en.server.account_deactivated, i18n: [{ key: 'server.account_deactivated', values: {} }] });
  await expect(page.getByText(fr.server.account_deactivated)).toBeVisible();
  await expect(page.getByText(en.server.account_deactivated)).toHaveCount(0);
});
