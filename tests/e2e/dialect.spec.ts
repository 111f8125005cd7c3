import type { Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, api, apiLogin, signedIn, unique } from './helpers';

/**
 * The console speaks the dialect config.json names: the contract's POST calls, or the REST face
 * (the REST smoke run serves config.json with `dataDialect: "simple-rest"`). Either way the shops
 * screen lists, opens and saves a record, and the server's message is shown.
 */
test('the console reads and saves through the configured data dialect @smoke', async ({ page, request }) => {
  const config = (await (await request.get('/config.json')).json()) as { dataDialect?: string };
  const rest = config.dataDialect === 'simple-rest';
  const calls: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) calls.push(r);
  });
  await signedIn(page, DEMO.admin);
  await page.goto('/brands');
  const table = page.getByRole('table');
  const first = table.getByRole('row').nth(1);
  await expect(first).toBeVisible();
  const paths = () => calls.map((r) => `${r.method()} ${new URL(r.url()).pathname}`);
  if (rest) {
    expect(paths()).toContain('GET /api/rest/brands');
    const list = calls.find((r) => new URL(r.url()).pathname === '/api/rest/brands')!;
    expect((await list.response())?.headers()['content-range']).toMatch(/^brands \d+-\d+\/\d+$|^brands \*\/0$/);
  } else {
    expect(paths()).toContain('POST /api/brands');
    expect(paths().some((p) => p.includes('/api/rest/'))).toBe(false);
  }
  // Rename a brand of the test's own and put its name back: both saves go through the dialect and show the server's message.
  const { token } = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const made = await api(request, '/brand', { name: unique('Dialect '), type: 'popular', product_id: 0 }, token);
  expect(made.status).toBe(true);
  const brand = made.detail as { id: number; name: string };
  await page.goto(`/brands/${brand.id}`);
  const name = page.getByLabel('name *', { exact: true });
  await expect(name).toHaveValue(brand.name);
  const isSave = (r: Request) =>
    rest ? r.method() === 'PUT' && new URL(r.url()).pathname === `/api/rest/brands/${brand.id}` : r.method() === 'POST' && new URL(r.url()).pathname === '/api/brand';
  for (const value of [`${brand.name} (renamed)`, brand.name]) {
    await name.fill(value);
    const [saved] = await Promise.all([page.waitForResponse((r) => isSave(r.request())), page.getByRole('button', { name: 'Save' }).click()]);
    expect(saved.status()).toBeLessThan(300);
    await expect(page.getByText('Brand updated successfully', { exact: true }).first()).toBeVisible();
    await expect(table.getByRole('cell', { name: value, exact: true })).toBeVisible();
    // The form has taken the saved record (nothing left to save) before the next change is typed.
    await expect(name).toHaveValue(value);
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  }
});
