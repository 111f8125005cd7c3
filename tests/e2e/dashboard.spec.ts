/**
 * The dashboard for each role (SPEC §2.8, DESIGN D2, D9), its numbers those the API gives for what the
 * database holds, and a new seller's from rows of the test's own; live chat (SPEC §2.28): an admin
 * accepts a visitor's chat and answers it; a new visitor's chat shows by the next poll at the latest.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { convert, formatMoney, type Rate } from '../../contract';
import { api, apiLogin, DEMO, nameOf, newCategory, newProduct, newShop, signedIn, unique } from './helpers';
import { registered } from './reference-helpers';

/** SPEC §9.2: the chat poll. */
const POLL = 10_000;

const strict = process.env.CONTRACT_STRICT === '1';
const card = (page: Page, label: string) => page.getByRole('region', { name: label, exact: true });
/** A card's number alone (its first paragraph), for exact comparisons. */
const number = (page: Page, label: string) => card(page, label).locator('p').first();

/** The spec's way, through the contract: every record of a list (search-dive with an empty value). */
async function everything(request: APIRequestContext, keyIndex: number, token: string): Promise<Record<string, any>[]> {
  return (await api(request, '/search-dive', { keyIndex, value: '', targets: ['id'] }, token)).HLL;
}

/** Amounts summed per currency, each sum converted into dollars, then added (DESIGN D14). */
async function inDollars(request: APIRequestContext, rows: Record<string, any>[], amount = 'paid_total_fxws') {
  const rates: Rate[] = (await api(request, '/exchangess', {})).HLL;
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.currency, (sums.get(row.currency) ?? 0) + Number(row[amount]));
  const total = [...sums].reduce((sum, [currency, value]) => sum + convert(value, currency, 'USD', rates), 0);
  return formatMoney(Math.round(total * 100) / 100, '$');
}

test('an admin sees every row with the numbers the API gives for the whole database, and the charts', async ({ page, request }) => {
  const { token } = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const orders = await everything(request, 4, token);
  const users = await everything(request, 0, token);
  await signedIn(page, DEMO.admin);
  const shops = await everything(request, 10, token);
  const products = await everything(request, 7, token);
  const subscriptions = await everything(request, 12, token);
  await expect(number(page, 'Number of Shops')).toHaveText(String(shops.length));
  await expect(number(page, 'Number of Products')).toHaveText(String(products.length));
  await expect(card(page, 'Number of Orders')).toContainText(`(${orders.length}) ${await inDollars(request, orders)}`);
  // Commissions: the ledger's, as the server totals them (checked against the postings in the integration
  // tests); a back end without the dashboard call (strict) counts commission subscriptions.
  if (!strict) {
    const earned = (await api(request, '/dashboard', {}, token)).detail.money.commission as { count: number; totals: { currency: string; amount: number }[] };
    await expect(card(page, 'Number of Commissions')).toContainText(`(${earned.count}) ${await inDollars(request, earned.totals, 'amount')}`);
  }
  for (const [title, type] of [...(strict ? [['Number of Commissions', 'commission']] : []), ['Number of Premier', 'premier'], ['Number of Adverts', 'advert']]) {
    const ofType = subscriptions.filter((r) => r.type === type);
    await expect(card(page, title)).toContainText(`(${ofType.length}) ${await inDollars(request, ofType, 'amount')}`);
  }
  const admins = users.filter((u) => JSON.parse(u.abilities).includes(3)).length;
  await expect(number(page, 'Number of Admins')).toHaveText(String(admins));
  await expect(number(page, 'Number of Sellers')).toHaveText(String(users.filter((u) => JSON.parse(u.abilities).join() === '1,2').length));
  for (const chart of ['Orders and revenue per day', 'Orders by status', 'Top 5 shops by revenue']) {
    await expect(page.getByRole('img', { name: chart })).toBeVisible();
    await expect(page.getByRole('img', { name: chart })).toHaveJSProperty('tagName', 'CANVAS');
  }

  await card(page, 'Number of Shops').getByRole('link').click();
  await expect(page).toHaveURL(/\/shops$/);
});

test("a seller sees their own shops, products and their shops' orders, and no admin rows", async ({ page, request }) => {
  // A new seller: two shops, three products, one order (another seller's shop and product beside them).
  const seller = await registered(request);
  const category = await newCategory(request);
  const shops = [await newShop(request, seller.token, category), await newShop(request, seller.token, category)];
  const products = [
    await newProduct(request, seller.token, shops[0].id, category), await newProduct(request, seller.token, shops[0].id, category),
    await newProduct(request, seller.token, shops[1].id, category),
  ];
  const other = await registered(request);
  await newProduct(request, other.token, (await newShop(request, other.token, category)).id, category);
  const buyer = await apiLogin(request, DEMO.buyer.email, DEMO.buyer.password);
  const placed = await api(request, '/order', {
    shop_id: shops[1].id, items: [{ product_id: products[2].id, quantity: 1 }],
    shipping_address: { street_name: '5 Broad Street', city: 'Monrovia', country: 'Liberia', zip: '1000' },
  }, buyer.token);
  expect(placed.status).toBe(true);
  expect((await everything(request, 4, seller.token)).filter((o) => o.shop.owner_id === seller.id).map((o) => o.id)).toEqual([placed.detail.id]);
  await signedIn(page, seller);
  await expect(number(page, 'Number of Shops')).toHaveText('2');
  await expect(number(page, 'Number of Products')).toHaveText('3');
  await expect(card(page, 'Number of Orders')).toContainText(`(1) ${await inDollars(request, [placed.detail])}`);
  await expect(card(page, 'Number of Commissions')).toHaveCount(0);
  await expect(card(page, 'Number of Admins')).toHaveCount(0);
  await card(page, 'Number of Products').getByRole('link').click();
  await expect(page).toHaveURL(/\/my-products$/);
});

test('a buyer sees their own orders (DESIGN D9)', async ({ page, request }) => {
  const { token } = await apiLogin(request, DEMO.buyer.email, DEMO.buyer.password);
  const own = strict ? [] : await everything(request, 4, token);
  await signedIn(page, DEMO.buyer);
  await expect(number(page, 'Number of Shops')).toHaveText('0');
  await expect(number(page, 'Number of Products')).toHaveText('0');
  // A contract-only server refuses a buyer's order search, so the card is left out there.
  if (!strict) await expect(card(page, 'Number of Orders')).toContainText(`(${own.length})`);
  await expect(card(page, 'Number of Admins')).toHaveCount(0);
  if (strict) return;
  // The card leads to those orders: the buyer's purchases.
  await card(page, 'Number of Orders').getByRole('link').click();
  await expect(page).toHaveURL(/\/my-purchases$/);
  await expect(page.getByRole('main').getByRole('table').getByRole('row')).toHaveCount(Math.min(own.length, 15) + 1);
});

test('an admin accepts a chat, answers it, and sees a new visitor within the poll', async ({ page, request }) => {
  // Two chats of the test's own, opened by visitors: one message, and a long one of eight.
  const visitorName = unique('Visitor ');
  const longName = unique('Talker ');
  const open = (name: string, messages: string[]) =>
    api(request, '/chat', { user_name: name, user_email: 'visitor@example.com', chats: messages.map((message) => ({ sent: 1, recieved: 0, message })) });
  expect((await open(visitorName, ['Hello, is anyone there?'])).status).toBe(true);
  expect((await open(longName, Array.from({ length: 8 }, (_, k) => `Message ${k + 1}`))).status).toBe(true);
  const adminName = await nameOf(request, DEMO.admin);
  await page.clock.install();
  await signedIn(page, DEMO.admin);
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('menuitem', { name: 'Chat Logs' }).click();
  const visitor = page.getByRole('article', { name: visitorName });
  await expect(visitor).toContainText('Incoming');
  await expect(visitor).toContainText('visitor@example.com');
  await visitor.getByRole('button', { name: 'Accept' }).click();
  await expect(visitor).toContainText('Received');
  await expect(visitor).toContainText(adminName);
  await expect(visitor.getByRole('button', { name: 'Accept' })).toHaveCount(0);

  await visitor.getByRole('button', { name: 'Open' }).click();
  const chat = page.getByRole('region', { name: `Chat with ${visitorName}` });
  await expect(chat.locator('[data-side="visitor"]')).toHaveText(['Hello, is anyone there?']);
  const input = chat.getByPlaceholder('Type here...');
  await input.fill('Hello! How can I help?');
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect(chat.locator('[data-side="admin"]')).toHaveText(['Hello! How can I help?']);
  await expect(input).toHaveValue('');

  await chat.getByRole('button', { name: 'Close the chat' }).click();
  await page.getByRole('article', { name: longName }).getByRole('button', { name: 'Open' }).click();
  const long = page.getByRole('region', { name: `Chat with ${longName}` });
  await expect(long.getByRole('log').locator('[data-side]')).toHaveText(['Message 3', 'Message 4', 'Message 5', 'Message 6', 'Message 7', 'Message 8']);
  await long.getByRole('button', { name: 'Load previous' }).click();
  await expect(long.getByRole('log').locator('[data-side]')).toHaveCount(8);

  // A new visitor opens a chat (anonymously); the open page shows it by its next poll at the latest
  // (the page's clock moved on by one poll: on this server the stream shows it before).
  const name = unique('Guest ');
  const opened = await api(request, '/chat', {
    user_name: name, user_email: 'guest@example.com', user_ip_address: '10.0.0.9', admin_online: true,
    chats: [{ sent: 1, recieved: 0, message: 'Is this in stock?' }],
  });
  expect(opened.status).toBe(true);
  expect(opened.detail.admin_online).toBe(0); // a visitor cannot say an admin has joined
  await page.clock.runFor(POLL);
  await expect(page.getByRole('article', { name })).toContainText('Incoming');
});
