/**
 * The admin reference screens in Chromium (issue: templates, subscriptions, plans, jobs, applicants,
 * shipping, miles, distances, deletions, support): one pass per screen doing what its user would.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { DEMO, api, apiLogin, signedIn, unique } from './helpers';
import { notice, pick, registered, row, search, table, uploadCv } from './reference-helpers';

const TEMPLATE_FORBIDDEN =
  'This operation is forbidden. Please reload and select a template by clicking on the template you want to modify';

test('an admin edits a mail template with its preview; saving with none selected is forbidden @smoke', async ({ page }) => {
  await signedIn(page, DEMO.admin);
  await page.goto('/mail-templates');
  await page.getByRole('button', { name: 'Explore' }).click();
  await expect(page.getByRole('tab', { name: 'Editor' })).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, TEMPLATE_FORBIDDEN)).toBeVisible();

  await row(page, 'Your account deletion request').getByText('Your account deletion request').click();
  await expect(page.getByRole('heading', { name: 'Editing Your account deletion request (#7)' })).toBeVisible();
  const subject = unique('Shipped: ');
  await page.getByLabel('subject *').fill(subject);
  await page.getByLabel('message *').fill('Hello,\nyour parcel left our warehouse.');
  const preview = page.getByRole('region', { name: /Preview/ });
  await expect(preview).toContainText(`Subject: ${subject}`);
  await expect(preview).toContainText('your parcel left our warehouse.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Template updated successfully')).toBeVisible();
  await expect(row(page, subject)).toContainText('privacy@example.com');

  await page.getByRole('tab', { name: 'Control' }).click();
  await page.getByRole('radio', { name: 'Inactive' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(page, 'Template status updated successfully')).toBeVisible();
  await expect(row(page, subject).getByRole('img', { name: 'Inactive' })).toBeVisible();
});

test('an admin deactivates a subscription; a subscription of no shop shows a blank shop id', async ({ page }) => {
  await signedIn(page, DEMO.admin);
  await page.goto('/subscriptions');
  const noShop = row(page, '2026-03-01');
  // Cells: selection box, End date, Payment gateway, Shop id…
  await expect(noShop.getByRole('cell').nth(3)).toHaveText('');
  const active = table(page).getByRole('row').filter({ has: page.getByRole('img', { name: 'Active', exact: true }) }).first();
  const id = (await active.getByRole('cell').nth(5).textContent())!.trim();
  await active.getByRole('cell').nth(6).click();
  await expect(page).toHaveURL(new RegExp(`/subscriptions/${id}`));
  await expect(page.getByRole('tab', { name: 'Add / Edit' })).toHaveCount(0);
  await page.getByRole('radio', { name: 'Inactive' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(page, 'Subscription status updated successfully')).toBeVisible();
  const changed = table(page).getByRole('row').filter({ has: page.getByRole('cell', { name: id, exact: true }) });
  await expect(changed.getByRole('img', { name: 'Inactive' })).toBeVisible();
});

test('plans and shipping classes are update-only, their currency fixed to USD', async ({ page }) => {
  await signedIn(page, DEMO.admin);
  await page.goto('/subscription-plans/create');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    notice(page, 'This operation is forbidden. Please reload and select a Subscription Plan by clicking on the Subscription Plan you want to modify'),
  ).toBeVisible();
  await row(page, 'banner').getByText('banner').click();
  await expect(page.getByRole('heading', { name: /^Editing/ })).toBeVisible();
  await expect(page.getByRole('combobox', { name: /Currency \( USD only \)/ })).toHaveText('USD');
  await page.getByLabel('amount *').fill('59');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Subscription plan updated successfully')).toBeVisible();
  await expect(row(page, 'banner').getByRole('cell', { name: '59', exact: true })).toBeVisible();

  await page.goto('/shipping-classes/create');
  await expect(page.getByRole('combobox', { name: /currency \( USD only \)/ })).toHaveText('USD');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    notice(page, 'This operation is forbidden. Please reload and select a Shipping Class by clicking on the Shipping Class you want to modify'),
  ).toBeVisible();
});

test('an admin fills a custom distance from the pickers into Location B, saves it and deletes it', async ({ page }) => {
  const area = unique('Area ');
  await signedIn(page, DEMO.admin);
  await page.goto('/custom-distances');
  await page.getByRole('button', { name: 'Explore' }).click();
  await expect(page.getByPlaceholder('Country,State,Area')).toHaveCount(2);
  await expect(page.getByPlaceholder('536')).toBeVisible();
  await page.getByRole('radio', { name: 'Location B' }).check();
  await pick(page, 'Country', 'Nigeria', 'Niger');
  await pick(page, 'State', 'Lagos', 'Lag');
  await pick(page, 'City', 'Ikeja', 'Ikej');
  await expect(page.getByLabel('Location B *')).toHaveValue('Nigeria,Lagos,Ikeja');
  await expect(page.getByLabel('Location A *')).toHaveValue('');
  await page.getByLabel('Location A *').fill(`Nigeria,Lagos,${area}`);
  await page.getByLabel('Distance (Kilometer) *').fill('14');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Custom distance created successfully')).toBeVisible();
  await expect(row(page, area)).toContainText('Nigeria,Lagos,Ikeja');

  await page.getByRole('tab', { name: 'Control' }).click();
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(notice(page, 'Custom distance deleted successfully')).toBeVisible();
  await expect(row(page, area)).toHaveCount(0);
});

test('an admin settles a deletion request: the account is anonymised and the request locked', async ({ page, request }) => {
  const user = await registered(request, unique('Leaving User '));
  const feedback = unique('Please remove my data ');
  const asked = await api(request, '/deletion', { customer: user.name, customer_id: user.id, feedback, deletion_status: 'No action' }, user.token);
  expect(asked.query).toBe('Deletion request created successfully');

  await signedIn(page, DEMO.admin);
  await page.goto('/deletion-requests');
  await row(page, user.name).getByText(user.name).click();
  await expect(page.getByRole('heading', { name: /^Editing/ })).toBeVisible();
  await page.getByRole('combobox', { name: /Deletion status/ }).click();
  await expect(page.getByRole('option')).toHaveText(['No Action', 'Delete Permanently', 'Cancel Delete']);
  await page.getByRole('option', { name: 'Delete Permanently' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  // It cannot be undone: Save asks first.
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(notice(page, 'Deletion request updated successfully')).toBeVisible();
  const settled = row(page, feedback);
  await expect(settled).toContainText('Deleted user');
  await expect(settled.getByRole('img', { name: 'Active', exact: true })).toBeVisible();

  // Locked: any further change is refused with the spec's words.
  await page.getByRole('combobox', { name: /Deletion status/ }).click();
  await page.getByRole('option', { name: 'Cancel Delete' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'This user have been previously deleted')).toBeVisible();

  // The account is gone: its session ended and its password no longer works.
  expect((await api(request, '/deletion', { customer: 'x', customer_id: 1, feedback: 'again' }, user.token)).status).toBe(false);
  const login = await api(request, '/user/terminal', { credential: user.email, password: user.password, source: 'inbuilt', actionType: 'login' });
  expect(login.status).toBe(false);
});

test("an admin downloads an applicant's CV; job posts are made with country and state pickers", async ({ page, request }) => {
  const user = await registered(request, unique('Applicant '));
  const cv = await uploadCv(request, user.token);
  const title = unique('Courier ');
  expect((await api(request, '/applicant', { title, cv, country: 'Ghana' }, user.token)).status).toBe(true);

  await signedIn(page, DEMO.admin);
  await page.goto('/job-applicants');
  await search(page, title);
  await expect(row(page, title)).toContainText(user.name);
  await expect(row(page, title)).toContainText(user.email);
  const [download] = await Promise.all([page.waitForEvent('download'), row(page, title).getByRole('button', { name: /Download the CV/ }).click()]);
  expect(download.suggestedFilename()).toBe(`cv_${user.id}.docx`);
  expect(fs.readFileSync((await download.path())!).subarray(0, 2).toString()).toBe('PK');
  // Read-only: the record opens as details.
  await row(page, title).getByText('Ghana').click();
  await expect(page.getByRole('tab', { name: 'Details' })).toBeVisible();

  const job = unique('Rider ');
  await page.goto('/job-posts/create');
  await page.getByLabel('title *').fill(job);
  await page.getByLabel('Before *').fill('2027-01-31');
  await page.getByLabel('description *').fill('Deliver parcels.');
  await page.getByLabel('qualification *').fill('A licence');
  await page.getByLabel('details *').fill('Full time');
  await expect(page.getByRole('combobox', { name: 'City' })).toHaveCount(0);
  await pick(page, 'Country', 'Nigeria', 'Niger');
  await pick(page, 'State', 'Lagos', 'Lag');
  await page.getByRole('button', { name: 'Save' }).click();
  // The form checks the declared format before sending, in the field's own words.
  await expect(page.getByText('Must be a date written dd/mm/yyyy, such as 31/12/2026')).toBeVisible();
  await page.getByLabel('Before *').fill('31/01/2027');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Job post created successfully')).toBeVisible();
  await expect(row(page, job)).toContainText('Lagos');
  await page.getByRole('tab', { name: 'Control' }).click();
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(notice(page, 'Job post deleted successfully')).toBeVisible();
});

test('support messages are read with the sender’s name; a seller cannot open the reference screens', async ({ page, request }) => {
  await signedIn(page, DEMO.admin);
  await page.goto('/support');
  await expect(row(page, 'Late delivery')).toContainText('Bea Buyer');
  await row(page, 'Late delivery').getByText('Late delivery').click();
  await expect(page.getByRole('region', { name: 'Editing panel' })).toContainText('My order has not arrived yet.');

  const seller = await apiLogin(request, DEMO.seller.email, DEMO.seller.password);
  expect((await api(request, '/supports', { page: 1 }, seller.token)).status).toBe(false);
  expect((await api(request, '/templatess', { page: 1 }, seller.token)).status).toBe(false);
});

test('a seller subscribes a shop on Packages; an admin activates it on Subscriptions', async ({ page, request }) => {
  // Two people sign in one after the other.
  test.setTimeout(60_000);
  const user = await registered(request, unique('Package Seller '));
  const shopName = unique('Package Shop ');
  const shop = await api(request, '/shop', {
    name: shopName, description: 'd', category_id: 1, address: { street_name: '1 Road', zip: '100001', country: 'Ghana' },
    bank: { bank_name: 'Bank', bank_country: 'Ghana', account_name: 'Me', account_number: '1' },
  }, user.token);
  expect(shop.status).toBe(true);
  // A second, deactivated shop is shown but cannot be picked.
  const closedName = unique('Closed Shop ');
  const closed = await api(request, '/shop', {
    name: closedName, description: 'd', category_id: 1, address: { street_name: '2 Road', zip: '100001', country: 'Ghana' },
    bank: { bank_name: 'Bank', bank_country: 'Ghana', account_name: 'Me', account_number: '1' },
  }, user.token);
  expect((await api(request, '/shop/status', { is_active: 0, id: closed.detail.id }, user.token)).status).toBe(true);
  const plan = ((await api(request, '/packages', {}, user.token)).HLL.plans as { type: string; nature: string; amount: number }[])
    .find((p) => p.type === 'premier' && p.nature === 'listing')!;

  await signedIn(page, { email: user.email, password: user.password });
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('menuitem', { name: 'Packages' }).click();
  await expect(page).toHaveURL(/\/packages$/);
  const card = page.getByRole('article', { name: 'premier · listing' });
  await expect(card).toContainText('For 1 week');
  await card.getByRole('combobox', { name: 'Shop' }).click();
  await expect(page.getByRole('option', { name: `${closedName} (deactivated)` })).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('option', { name: shopName }).click();
  await card.getByRole('button', { name: 'Subscribe' }).click();
  // Nothing is sent before the seller agrees to the price.
  const confirm = page.getByRole('dialog', { name: 'Subscribe to this package?' });
  await expect(confirm).toContainText(`Subscribe ${shopName} to premier · listing for $${plan.amount.toFixed(2)}, for 1 week?`);
  await page.screenshot({ path: test.info().outputPath('packages-confirm.png') });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect((await api(request, '/packages', {}, user.token)).HLL.subscriptions).toEqual([]);
  await card.getByRole('button', { name: 'Subscribe' }).click();
  await confirm.getByRole('button', { name: 'Subscribe' }).click();
  await expect(notice(page, `${shopName} is subscribed; the package starts once an administrator activates it`)).toBeVisible();
  const mine = page.getByRole('region', { name: 'Your subscriptions' });
  await expect(mine.getByRole('row').filter({ hasText: shopName })).toContainText('Waiting for activation');

  const subscription = (await api(request, '/packages', {}, user.token)).HLL.subscriptions[0];
  const asAdmin = await page.context().browser()!.newPage();
  await signedIn(asAdmin, DEMO.admin);
  await asAdmin.goto(`/subscriptions/${subscription.id}`);
  await asAdmin.getByRole('radio', { name: 'Active', exact: true }).check();
  await asAdmin.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(asAdmin, 'Subscription status updated successfully')).toBeVisible();
  await asAdmin.close();

  await page.reload();
  await expect(mine.getByRole('row').filter({ hasText: shopName })).toContainText('Active');
});

test('an admin renames a subcategory and moves it to another category, seen on the Categories list', async ({ page, request }) => {
  const { token } = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const from = unique('Kitchen ');
  const to = unique('Outdoor ');
  const sub = unique('Pans ');
  for (const [name, subcategory_name] of [[from, sub], [to, 'Tents']]) {
    const made = await api(request, '/category', { name, subcategory_name, commission_currency: 'USD', commission_flat_rate: 2 }, token);
    expect(made.status).toBe(true);
  }
  await signedIn(page, DEMO.admin);
  await page.goto('/category');
  await page.getByRole('link', { name: 'Subcategories' }).click();
  await expect(page).toHaveURL(/\/subcategory$/);
  await search(page, sub);
  await row(page, sub).getByText(sub).click();
  await expect(page.getByRole('heading', { name: /^Editing/ })).toBeVisible();

  // A name the target category already has is refused with the server's words.
  await page.getByLabel('Name *').fill('tents');
  await pick(page, 'Category', to, to.slice(0, 10));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, `The name 'tents' is already used by another subcategory of ${to}`)).toBeVisible();

  const renamed = unique('Skillets ');
  await page.getByLabel('Name *').fill(renamed);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Subcategory updated successfully')).toBeVisible();
  await search(page, renamed);
  await expect(row(page, renamed)).toContainText(to);

  await page.getByRole('link', { name: 'category', exact: true }).click();
  await expect(page).toHaveURL(/\/category$/);
  await search(page, to);
  await expect(row(page, to)).toContainText(renamed);
  await search(page, from);
  await expect(row(page, from)).not.toContainText(renamed);
});
