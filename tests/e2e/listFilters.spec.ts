import { expect, test } from './fixtures';
import { newCategory, newProduct, newShop, signedIn, unique, api } from './helpers';
import { fr } from '../../i18n/fr';
import { registered } from './reference-helpers';

/**
 * A list's declared filters (react-admin's <List filters>): Products by status, shown above the
 * table, narrowing the rows the server sends, in the reader's language.
 */
test('a seller narrows My Products to drafts, then active, then all, with the search still applying @smoke', async ({ page, request }) => {
  const seller = await registered(request);
  const category = await newCategory(request);
  const shop = await newShop(request, seller.token, category, unique('Filter Shop '));
  const product = async (name: string) => (await newProduct(request, seller.token, shop.id, category, name, { currency: { code: 'NGN' } })).id;
  const lamp = unique('Lamp ');
  const chair = unique('Chair ');
  await product(lamp);
  const draft = await product(chair);
  const status = await api(request, '/product/status', { type: 'state', premier: 'no', product_type: 'new', state: 'draft', id: draft }, seller.token);
  expect(status.status).toBe(true);

  await signedIn(page, seller);
  await page.goto('/my-products');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.filter({ hasText: lamp })).toBeVisible();
  await expect(rows.filter({ hasText: chair })).toBeVisible();

  const filter = page.getByRole('combobox', { name: 'Status' });
  await filter.click();
  await page.getByRole('option', { name: 'draft' }).click();
  await expect(rows.filter({ hasText: lamp })).toHaveCount(0);
  await expect(rows.filter({ hasText: chair })).toBeVisible();
  await expect(page.getByText('Count: 1', { exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('products-filter-draft.png') });

  await filter.click();
  await page.getByRole('option', { name: 'active' }).click();
  await expect(rows.filter({ hasText: chair })).toHaveCount(0);
  await expect(rows.filter({ hasText: lamp })).toBeVisible();

  // The search applies within the filter: the active lamp is found, the draft chair is not.
  const box = page.getByRole('textbox', { name: 'Search' });
  await box.fill(chair);
  await box.press('Enter');
  await expect(page.getByText('No Data')).toBeVisible();

  await box.fill(lamp);
  await box.press('Enter');
  await expect(rows.filter({ hasText: lamp })).toBeVisible();

  await filter.click();
  await page.getByRole('option').filter({ hasText: 'All' }).click();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(rows.filter({ hasText: lamp })).toBeVisible();
  await expect(rows.filter({ hasText: chair })).toBeVisible();
  await expect(page.getByText('Count: 2', { exact: true })).toBeVisible();
});

test('the filter speaks French to a French reader', async ({ page, request }) => {
  const seller = await registered(request);
  await page.addInitScript(() => window.localStorage.setItem('RaStore.locale', JSON.stringify('fr')));
  await page.goto('/login');
  await page.getByPlaceholder(fr.auth.login.credential_placeholder).fill(seller.email);
  await page.getByLabel(fr.auth.password, { exact: false }).first().fill(seller.password);
  await page.getByRole('button', { name: fr.auth.login.submit }).click();
  await expect(page.getByRole('navigation', { name: fr.menu.label })).toBeVisible();
  await page.goto('/my-products');
  const filter = page.getByRole('combobox', { name: 'Statut' });
  await filter.click();
  await expect(page.getByRole('option')).toHaveText(['Tous', 'actif', 'brouillon']);
});
