/**
 * Lists on a phone (390×844): a compact list (as react-admin's SimpleList) instead of a table whose
 * columns run off-screen; My Orders keeps each order's status and total on screen.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import englishMessages from 'ra-language-english';
import { en } from '../../i18n/en';
import { loadRegistry } from '../../server/registry';
import { DEMO, api, holdRequests, newCategory, newProduct, newShop, signIn, unique } from './helpers';
import { registered } from './reference-helpers';

/** A new seller's product, and (when asked) a new buyer's order of it: the lists below show rows of the test's own. */
async function onSale(request: APIRequestContext) {
  const seller = await registered(request);
  const category = await newCategory(request);
  const shop = await newShop(request, seller.token, category);
  const product = await newProduct(request, seller.token, shop.id, category, unique('Phone Lamp '));
  return { seller, shop, product };
}
async function ordered(request: APIRequestContext) {
  const { seller, shop, product } = await onSale(request);
  const buyer = await registered(request, unique('Phone Buyer '), '[1]');
  const placed = await api(request, '/order', {
    shop_id: shop.id, items: [{ product_id: product.id, quantity: 1 }],
    shipping_address: { street_name: '5 Broad Street', city: 'Monrovia', country: 'Liberia', zip: '1000' },
  }, buyer.token);
  expect(placed.status).toBe(true);
  return { seller, buyer };
}

const registry = await loadRegistry();
const main = (page: Page) => page.getByRole('main');
/** The list's rows once loaded (or its 'No Data'). */
const loaded = (page: Page) => expect(main(page).getByRole('listitem').first().or(main(page).getByText(en.management.no_data)).first()).toBeVisible();
const STATUS = new RegExp(Object.values(en.resources.orders.choices).join('|'));

test.use({ viewport: { width: 390, height: 844 } });

test("My Orders on a phone: each order's status and total on screen, a row opens the order from the keyboard", async ({ page, request }) => {
  const { seller } = await ordered(request);
  await signIn(page, seller.email, seller.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/my-orders');
  await loaded(page);
  await expect(main(page).getByRole('table')).toHaveCount(0);
  await expect(main(page).getByRole('listitem')).toHaveCount(1);
  const first = main(page).getByRole('listitem').first();
  await expect(first).toContainText(STATUS);
  for (const part of [first.getByText(STATUS), first.locator('[data-money]').first()]) {
    await expect(part).toBeInViewport({ ratio: 1 });
    const box = (await part.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(inner);
  // A row opens from the keyboard as from a tap (the buyer's test below taps).
  await first.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'Order details' })).toBeVisible();
  // Its items stand as lines, each value after its column's name, none off to the side.
  const items = page.getByRole('dialog').getByRole('table', { name: 'Items' });
  await expect(items.locator('thead')).toBeHidden();
  const cells = items.locator('tbody tr').first().locator('td');
  await expect(cells.first()).toBeVisible();
  expect(await cells.count()).toBeGreaterThanOrEqual(4);
  for (const cell of await cells.all()) {
    const box = (await cell.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
});

test('every list screen of an admin is a compact list on a phone, none a table', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/$/);
  const lists = registry.resources.filter((r) => r.menu && (r as { screen?: { kind: string } }).screen?.kind !== 'page');
  expect(lists.length).toBeGreaterThan(0);
  for (const def of lists) {
    await page.goto(def.menu!.path);
    await loaded(page);
    await expect(main(page).getByRole('table'), def.menu!.path).toHaveCount(0);
  }
});

test('the top bar slides away while a list is scrolled down and comes back as it is scrolled up', async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/products');
  await loaded(page);
  const bar = page.getByRole('banner');
  await expect(bar).toBeInViewport();
  await page.mouse.move(200, 400);
  await page.mouse.wheel(0, 600);
  await expect(bar).not.toBeInViewport();
  await page.mouse.wheel(0, -200);
  await expect(bar).toBeInViewport();
});

test('the signed-in layout and a list open without reading the scroll position (a forced layout mid-drawing)', async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/$/);
  // Every read of the window's scroll position, from the page's first script on.
  await page.addInitScript(() => {
    const reads: string[] = ((window as unknown as { scrollReads: string[] }).scrollReads = []);
    for (const name of ['scrollY', 'pageYOffset'] as const) {
      const own = Object.getOwnPropertyDescriptor(window, name)!;
      Object.defineProperty(window, name, { configurable: true, get: () => (reads.push(name), own.get!.call(window)) });
    }
  });
  await page.goto('/products');
  await loaded(page);
  expect(await page.evaluate(() => (window as unknown as { scrollReads: string[] }).scrollReads)).toEqual([]);
  // The probe counts: a scroll is read.
  await page.mouse.move(200, 400);
  await page.mouse.wheel(0, 300);
  await expect.poll(() => page.evaluate(() => (window as unknown as { scrollReads: string[] }).scrollReads.length)).toBeGreaterThan(0);
});

test('the top bar on a phone draws no currency chooser and no search box (drawn and hidden, they cost the opening its longest tasks)', async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/orders');
  await loaded(page);
  // The amounts are drawn: the rates the chooser waits for have arrived.
  await expect(main(page).locator('[data-money]').first()).toBeVisible();
  const bar = page.getByRole('banner');
  await expect(bar.getByRole('button', { name: en.shell.user_menu })).toBeVisible();
  // CSS locators: they find hidden elements too, where roles do not.
  await expect(bar.locator(`[aria-label="${en.currency.chooser}"]`)).toHaveCount(0);
  await expect(bar.locator('form[role="search"]')).toHaveCount(0);
  // From 600 px up, both are there.
  await page.setViewportSize({ width: 800, height: 844 });
  await expect(bar.getByRole('combobox', { name: en.currency.chooser })).toBeVisible();
  await expect(bar.getByRole('search')).toBeVisible();
});

test('a phone searches everything from the top bar: its search button opens the search page, whose own box finds a product and opens it', async ({ page, request }) => {
  const { product } = await onSale(request);
  const part = String(product.name).slice(6);
  const label = en.resources.users.search.label;
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/$/);
  const bar = page.getByRole('banner');
  await bar.getByRole('link', { name: label }).click();
  await expect(page).toHaveURL(/\/search$/);
  // The page's box takes the typing at once.
  const box = main(page).getByRole('searchbox', { name: label });
  await expect(box).toBeFocused();
  await expect(main(page).getByText(en.management.search_too_short)).toBeVisible();
  await page.keyboard.type(part);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/search?q=${encodeURIComponent(part)}`);
  await expect(box).toHaveValue(part);
  // The bar's button stays where it was; on the results it starts a new search.
  await bar.getByRole('link', { name: label }).click();
  await expect(page).toHaveURL(/\/search$/);
  await expect(box).toHaveValue('');
  await expect(box).toBeFocused();
  await page.goBack();
  await expect(box).toHaveValue(part);
  const found = main(page).getByRole('region', { name: en.menu.products }).getByRole('link', { name: `${product.name} (#${product.id})`, exact: true });
  await found.click();
  await expect(page).toHaveURL(new RegExp(`/products/${product.id}$`));
  // From 600 px up the bar has its box and no button.
  await page.setViewportSize({ width: 800, height: 844 });
  await expect(bar.getByRole('searchbox', { name: label })).toBeVisible();
  await expect(bar.getByRole('link', { name: label })).toHaveCount(0);
});

test("on a phone the light/dark switch is in the account menu, and the bar shows the screen's name whole", async ({ page }) => {
  const toggle = englishMessages.ra.action.toggle_theme;
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/orders');
  await loaded(page);
  const bar = page.getByRole('banner');
  const title = bar.locator('#react-admin-title');
  await expect(title).toHaveText(en.menu.orders);
  // The title is not cut short: its text fits its box.
  expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await expect(bar.getByRole('button', { name: toggle })).toHaveCount(0);
  await expect(page.locator('html')).toHaveCSS('color-scheme', 'light');
  await bar.getByRole('button', { name: en.shell.user_menu }).click();
  await page.getByRole('menuitem', { name: toggle }).click();
  await expect(page.locator('html')).toHaveCSS('color-scheme', 'dark');
  await expect(page.getByRole('menu')).toHaveCount(0);
  // And back.
  await bar.getByRole('button', { name: en.shell.user_menu }).click();
  await page.getByRole('menuitem', { name: toggle }).click();
  await expect(page.locator('html')).toHaveCSS('color-scheme', 'light');
  // From 600 px up the switch is the bar's again, and not the menu's.
  await page.setViewportSize({ width: 800, height: 844 });
  await expect(bar.getByRole('button', { name: toggle })).toBeVisible();
  await bar.getByRole('button', { name: en.shell.user_menu }).click();
  await expect(page.getByRole('menuitem', { name: en.shell.logout })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: toggle })).toHaveCount(0);
});

test("a list's toolbar keeps its place on a phone while the list's answer is on its way", async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/$/);
  // The list's answer is held until the toolbar has been measured without it.
  const answer = await holdRequests(page, '**/api/products');
  await page.goto('/products');
  const exportButton = main(page).getByRole('button', { name: en.management.export });
  await expect(exportButton).toBeVisible();
  await expect(main(page).getByRole('progressbar')).toBeVisible();
  const before = (await exportButton.boundingBox())!;
  await answer.release();
  await loaded(page);
  await expect(main(page).getByText(/^Count: \d/)).toBeVisible();
  // The count arrived with the answer, where its room was kept: nothing after it moved down a line.
  expect((await exportButton.boundingBox())!.y).toBe(before.y);
});

test('a buyer on a phone opens My purchases from the folded sidebar: each order with its status and total', async ({ page, request }) => {
  const { buyer } = await ordered(request);
  await signIn(page, buyer.email, buyer.password);
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('menuitem', { name: 'My purchases' }).click();
  await expect(page).toHaveURL(/\/my-purchases$/);
  await loaded(page);
  await expect(main(page).getByRole('table')).toHaveCount(0);
  await expect(main(page).getByRole('listitem')).toHaveCount(1);
  const first = main(page).getByRole('listitem').first();
  await expect(first.getByText(STATUS)).toBeInViewport({ ratio: 1 });
  await expect(first.locator('[data-money]').first()).toBeInViewport({ ratio: 1 });
  await first.getByRole('button').click();
  await expect(page.getByRole('dialog').getByRole('list', { name: 'Status history' })).toBeVisible();
});

test("a buyer on a phone reaches each product's price and 'Add to cart' in the catalogue", async ({ page, request }) => {
  const { product } = await onSale(request);
  await signIn(page, DEMO.buyer.email, DEMO.buyer.password);
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('menuitem', { name: en.menu.catalogue }).click();
  const box = page.getByRole('textbox', { name: 'Search' });
  await box.fill(product.name);
  await box.press('Enter');
  await expect(page.getByRole('table', { name: en.cart.catalogue }).getByRole('row')).toHaveCount(2);
  const first = page.getByRole('table', { name: en.cart.catalogue }).getByRole('row').nth(1);
  await expect(first).toContainText(product.name);
  const add = first.getByRole('button', { name: en.cart.add });
  await expect(add).toBeInViewport({ ratio: 1 });
  await expect(first.locator('[data-money]')).toBeInViewport({ ratio: 1 });
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(inner);
  await add.click();
  await expect(page.getByRole('button', { name: 'Cart: 1 item(s)' })).toBeVisible();
});

test('Chat Logs on a phone: each chat card spans the screen with even margins', async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/chat-logs');
  const cards = main(page).getByRole('article');
  await expect(cards.first()).toBeVisible();
  const heading = (await main(page).getByRole('heading', { level: 1 }).boundingBox())!;
  for (const card of await cards.all()) {
    const box = (await card.boundingBox())!;
    expect(box.x).toBeCloseTo(heading.x, 0);
    // As much room on its right as on its left.
    expect(box.x + box.width).toBeGreaterThanOrEqual(390 - heading.x - 1);
    expect(box.x + box.width).toBeLessThanOrEqual(390 - heading.x + 1);
  }
});
