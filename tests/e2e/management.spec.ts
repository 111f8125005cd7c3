import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, api, apiLogin, holdRecordLookUps, holdRequests, newCategory, newShop, pick, shopBody, signedIn, unique } from './helpers';
import { registered } from './reference-helpers';

const table = (page: Page) => page.getByRole('table');
const row = (page: Page, text: string) => table(page).getByRole('row').filter({ hasText: text });
const notice = (page: Page, text: string) => page.getByText(text, { exact: true });

/** The shop form's own fields; the location is picked by the caller. */
async function fillShop(page: Page, shop: { name: string; category: string; street: string; zip: string; bank: string; country: string }) {
  await page.getByLabel('name *', { exact: true }).fill(shop.name);
  await pick(page, 'Category', shop.category);
  await page.getByLabel('description *').fill(`${shop.name} sells things`);
  await page.getByLabel('street name *').fill(shop.street);
  await page.getByLabel('Zip / Post Code *').fill(shop.zip);
  await page.getByLabel('bank name *').fill(shop.bank);
  await page.getByLabel('bank country *').fill(shop.country);
  await page.getByLabel('account name *').fill(`${shop.name} Ltd`);
  await page.getByLabel('account number *').fill('0012345678');
}

async function search(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Search' });
  await box.fill(text);
  await box.press('Enter');
}

test.describe('shops', () => {
  test('an admin creates a shop through the pickers, finds it, edits it, deactivates and reactivates it', async ({ page }) => {
    const name = unique('Harbour Goods ');
    const category = await newCategory(page.request);
    await signedIn(page, DEMO.admin);
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('menuitem', { name: 'Shops', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Administrative' })).toBeVisible();
    await expect(page.getByText('This is section is only visible to administrators')).toBeVisible();
    const counted = page.getByText(/^Count: \d+$/);
    await expect(counted).toBeVisible();
    const before = Number((await counted.textContent())!.replace('Count: ', ''));

    await page.getByRole('button', { name: 'Explore' }).click();
    await expect(page).toHaveURL(/\/shops\/create$/);
    await expect(page.getByRole('tab', { name: 'Add / Edit' })).toBeVisible();
    await fillShop(page, { name, category: category.name, street: '4 Quay Road', zip: '100271', bank: 'Harbour Bank', country: 'Nigeria' });
    await pick(page, 'Country', 'Nigeria', 'Niger');
    await pick(page, 'State', 'Lagos', 'Lag');
    await pick(page, 'City', 'Ikeja', 'Ikej');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(notice(page, 'Shop created successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/shops\/\d+$/);

    await page.getByRole('main').getByRole('button', { name: 'Close', exact: true }).click();
    await search(page, name.slice(0, 12) + '%$#');
    await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue(name.slice(0, 12));
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(row(page, name)).toContainText('Ikeja, Lagos, Nigeria');
    await expect(row(page, name)).toContainText(category.name);

    await row(page, name).getByText(name, { exact: true }).click();
    await expect(page.getByLabel('name *', { exact: true })).toHaveValue(name);
    await page.getByLabel('street name *').fill('5 Quay Road');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(notice(page, 'Shop updated successfully')).toBeVisible();
    await expect(row(page, name)).toContainText('5 Quay Road');

    await page.getByRole('tab', { name: 'Control' }).click();
    await page.getByRole('radio', { name: 'Deactivate' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(notice(page, 'Shop status updated successfully')).toBeVisible();
    await expect(row(page, name).getByRole('img', { name: 'Inactive' })).toBeVisible();
    await page.getByRole('radio', { name: 'Active', exact: true }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(row(page, name).getByRole('img', { name: 'Active' })).toBeVisible();

    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(page.getByText(`Count: ${before + 1}`, { exact: true })).toBeVisible();
  });

  test('a refresh of the open record keeps what is being typed and fills the rest; once saved, nothing is left unsaved', async ({ page }) => {
    const admin = await apiLogin(page.request, DEMO.admin.email, DEMO.admin.password);
    const category = await newCategory(page.request);
    const shop = await newShop(page.request, admin.token, category, unique('Refreshed Goods '));
    await signedIn(page, DEMO.admin);
    await page.goto('/shops');
    await search(page, shop.name);
    await expect(row(page, shop.name)).toBeVisible();

    // The panel opens on the record the list holds and asks the server for it again: that answer is held
    // back (a slow connection) while someone else changes the description and the user types a street.
    const lookUps = await holdRecordLookUps(page);
    await row(page, shop.name).getByText(shop.name, { exact: true }).click();
    await expect(page.getByLabel('name *', { exact: true })).toHaveValue(shop.name);
    await lookUps.asked();
    const changed = await api(page.request, '/shop', { ...shopBody(shop.name, category), description: 'Changed meanwhile', id: shop.id }, admin.token);
    expect(changed.status, changed.query).toBe(true);
    await page.getByLabel('street name *').fill('9 Typed Street');
    await lookUps.release();
    await expect(page.getByLabel('description *')).toHaveValue('Changed meanwhile');
    await expect(page.getByLabel('street name *')).toHaveValue('9 Typed Street');

    // The save is held back too, while the user goes on typing: what was typed after Save stays unsaved.
    const save = page.getByRole('button', { name: 'Save' });
    const saving = await holdRequests(page, '**/api/shop');
    await save.click();
    await saving.asked();
    await page.getByLabel('Zip / Post Code *').fill('100999');
    await saving.release();
    await expect(notice(page, 'Shop updated successfully')).toBeVisible();
    await expect(row(page, shop.name)).toContainText('9 Typed Street');
    await expect(page.getByLabel('street name *')).toHaveValue('9 Typed Street');
    await expect(page.getByLabel('Zip / Post Code *')).toHaveValue('100999');
    await expect(save).toBeEnabled();
    const savedAgain = page.waitForResponse('**/api/shop');
    await save.click();
    expect((await (await savedAgain).json()).detail.address.zip).toBe('100999');
    await expect(save).toBeDisabled();
    await expect(page.getByLabel('Zip / Post Code *')).toHaveValue('100999');
    // Leaving the saved record asks nothing.
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('main').getByRole('button', { name: 'Close', exact: true }).click();
    await expect(page).toHaveURL(/\/shops$/);
    expect(asked).toEqual([]);
  });

  test("a state outside the directory is typed after choosing 'Others'", async ({ page }) => {
    const name = unique('Frontier Store ');
    const category = await newCategory(page.request);
    await signedIn(page, DEMO.seller);
    await page.goto('/my-shops/create');
    await expect(page.getByText('This is section is visible to authorized person(s)')).toBeVisible();
    await fillShop(page, { name, category: category.name, street: '1 Edge Lane', zip: '0000', bank: 'Edge Bank', country: 'Liberia' });
    await pick(page, 'Country', 'Liberia', 'Liber');
    await pick(page, 'State', 'Others', 'Oth');
    await page.getByRole('textbox', { name: 'State' }).fill('New Frontier');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(notice(page, 'Shop created successfully')).toBeVisible();
    await expect(row(page, name)).toContainText('New Frontier, Liberia');
  });

  test('pages through the shops: the number of pages, the last page, any page, the first @smoke', async ({ page }) => {
    // More than three pages of shops, whatever the database held.
    const admin = await apiLogin(page.request, DEMO.admin.email, DEMO.admin.password);
    const held = (await api(page.request, '/shops', { page: 1 }, admin.token)).HLL.total as number;
    const category = held < 46 ? await newCategory(page.request) : undefined;
    for (let i = held; i < 46; i++) {
      const shop = await api(page.request, '/shop', shopBody(unique('Pager Shop '), category!), admin.token);
      expect(shop.status).toBe(true);
    }
    await signedIn(page, DEMO.admin);
    await page.goto('/shops');
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await expect(pager).toContainText(/Showing 1 to 15 of \d+ results/);
    const total = Number((await pager.textContent())!.match(/of (\d+) results/)![1]);
    const last = Math.ceil(total / 15);
    await expect(table(page).getByRole('row')).toHaveCount(16);
    await expect(pager.getByRole('button', { name: 'Page 1', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(pager.getByRole('button', { name: 'Go to previous page' })).toBeDisabled();
    await expect(pager.getByRole('button', { name: 'Go to first page' })).toBeDisabled();

    // The number of pages is shown, and the last page is one click away.
    await expect(pager.getByRole('button', { name: `Go to page ${last}`, exact: true })).toBeVisible();
    await pager.getByRole('button', { name: 'Go to last page' }).click();
    await expect(pager).toContainText(`Showing ${(last - 1) * 15 + 1} to ${total} of ${total} results`);
    await expect(pager.getByRole('button', { name: 'Go to next page' })).toBeDisabled();

    await pager.getByRole('button', { name: 'Go to page 2', exact: true }).click();
    await expect(pager).toContainText(`Showing 16 to 30 of ${total} results`);
    await pager.getByRole('button', { name: 'Go to next page' }).click();
    await expect(pager).toContainText('Showing 31 to ');
    await pager.getByRole('button', { name: 'Go to first page' }).click();
    await expect(pager).toContainText(`Showing 1 to 15 of ${total} results`);
  });

  test('a seller sees only their own shops under My Shops @smoke', async ({ page, request }) => {
    // Two shops under one word: the seller's, then another seller's, newer (first in a list of everyone's).
    const word = unique('Twin shop ');
    const category = await newCategory(request);
    const seller = await apiLogin(request, DEMO.seller.email, DEMO.seller.password);
    const mine = await newShop(request, seller.token, category, `${word} mine`);
    const theirs = await newShop(request, (await registered(request)).token, category, `${word} theirs`);
    await signedIn(page, DEMO.seller);
    await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('menuitem', { name: 'Shops' }).click();
    await expect(page).toHaveURL(/\/my-shops$/);
    await expect(page.getByText('This is section is visible to authorized person(s)')).toBeVisible();
    await expect(row(page, mine.name)).toBeVisible();
    await expect(table(page)).not.toContainText(theirs.name);
    await search(page, word);
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(row(page, mine.name)).toBeVisible();
    await page.goto('/shops');
    await expect(page.getByRole('heading', { name: 'Administrative' })).toHaveCount(0);
  });

  test('a double-clicked cell shows its value, a search with nothing found shows No Data', async ({ page, request }) => {
    const admin = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
    const place = unique('Riverside ');
    const shop = await newShop(request, admin.token, await newCategory(request), unique('Cell Shop '), {
      street_name: '1 Road', zip: 'SW1A 1AA', city: place, state: 'England', country: 'United Kingdom',
    });
    await signedIn(page, DEMO.admin);
    await page.goto('/shops');
    await search(page, shop.name);
    await row(page, shop.name).getByText(`${place}, England, United Kingdom`, { exact: true }).dblclick();
    await expect(page.getByRole('dialog')).toContainText(`${place}, England, United Kingdom`);
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await search(page, 'no such shop anywhere');
    await expect(page.getByText('No Data')).toBeVisible();
  });
});

test('a brand is created, listed and deactivated @smoke', async ({ page }) => {
  const name = unique('Brand ');
  await signedIn(page, DEMO.admin);
  await page.goto('/brands/create');
  await page.getByLabel('name *', { exact: true }).fill(name);
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'upcoming' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Brand created successfully')).toBeVisible();
  await expect(row(page, name)).toContainText('upcoming');
  // The first cell is the row's selection box.
  await expect(row(page, name).getByRole('cell').nth(5)).toHaveText('0');
  await page.getByRole('tab', { name: 'Control' }).click();
  await page.getByRole('radio', { name: 'Inactive' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(row(page, name).getByRole('img', { name: 'Inactive' })).toBeVisible();
});

test('a category is created with a new subcategory, and another subcategory is added to it', async ({ page }) => {
  const name = unique('Toys ');
  await signedIn(page, DEMO.admin);
  await page.goto('/category/create');
  await page.getByRole('combobox', { name: /^Name/ }).click();
  await page.getByRole('option', { name: 'Create New' }).click();
  await page.getByRole('textbox', { name: /^Name/ }).fill(name);
  await page.getByRole('combobox', { name: 'Subcategory Name' }).click();
  await page.getByRole('option', { name: 'Create New' }).click();
  await page.getByRole('textbox', { name: 'Subcategory Name' }).fill('Dolls');
  await page.getByRole('combobox', { name: 'Commission Currency' }).click();
  await page.getByRole('option', { name: 'NGN' }).click();
  await page.getByPlaceholder('Fill-in for new category').first().fill('3');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Category created successfully')).toBeVisible();
  await expect(row(page, name)).toContainText(/(^|\D)1\)\.Dolls/);
  await expect(row(page, name)).toContainText('NGN');

  await page.getByRole('combobox', { name: 'Subcategory Name' }).click();
  await page.getByRole('option', { name: 'Create New' }).click();
  await page.getByRole('textbox', { name: 'Subcategory Name' }).fill('Kites');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Category updated successfully')).toBeVisible();
  await expect(row(page, name)).toContainText(/(^|\D)2\)\.Kites/);
});
