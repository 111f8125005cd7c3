/**
 * The Shop of a new product: an admin picks any seller's shop, searched by name; a seller picks one
 * of their own, and one who has none is told why the list is empty.
 */
import { expect, test } from './fixtures';
import { DEMO, api, apiLogin, choose, newCategory, pick, shopBody, signedIn, unique } from './helpers';
import { registered } from './reference-helpers';

test("an admin creates a product in a seller's shop found by searching its name", async ({ page, request }) => {
  const seller = await registered(request);
  const category = await newCategory(request);
  const shopName = unique('Picked Shop ');
  expect((await api(request, '/shop', shopBody(shopName, category), seller.token)).status).toBe(true);
  const name = unique('Kettle ');

  await signedIn(page, DEMO.admin);
  await page.goto('/products/create');
  await page.getByLabel('name *', { exact: true }).fill(name);
  await page.getByLabel('description *').fill('A kettle');
  await pick(page, 'Category', category.name);
  await choose(page, 'Subcategory', category.subcategory.name);
  await choose(page, 'Currency ( Unique Currency per Shop )', 'USD');
  await pick(page, 'Shop', shopName, shopName.split(' ').pop()!);
  await expect(page.getByRole('combobox', { name: 'Shop', exact: true })).toHaveValue(shopName);
  await page.getByLabel('(Cancel) Price *').fill('30');
  await page.getByLabel('sale price *').fill('25');
  await page.getByLabel('in stock *').fill('4');
  await page.getByLabel('brand name *').fill('Acme');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Product created successfully', { exact: true })).toBeVisible();

  const admin = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const found = (await api(request, '/products', { page: 1, q: name }, admin.token)).HLL.data.find((p: { name: string }) => p.name === name);
  expect(found.shop.name).toBe(shopName);
});

test('a seller without a shop is told why the Shop list is empty', async ({ page, request }) => {
  const seller = await registered(request);
  await signedIn(page, { email: seller.email, password: seller.password });
  await page.goto('/my-products/create');
  await expect(page.getByText('You have no shop yet: create one first')).toBeVisible();

  expect((await api(request, '/shop', shopBody(unique('First Shop '), await newCategory(request)), seller.token)).status).toBe(true);
  await page.reload();
  await page.getByRole('combobox', { name: 'Shop', exact: true }).click();
  await expect(page.getByRole('option')).toHaveCount(1);
  await expect(page.getByText('You have no shop yet: create one first')).toHaveCount(0);
});
