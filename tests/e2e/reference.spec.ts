/**
 * The admin reference screens in Chromium (issue: templates, subscriptions, plans, jobs, applicants,
 * shipping, miles, distances, deletions, support): one pass per screen doing what its user would.
 */
import fs from 'node:fs';
import { expect, test } from './fixtures';
import { DEMO, api, apiLogin, newCategory, newShop, pick, signedIn, unique } from './helpers';
import { notice, registered, row, search, table, uploadCv } from './reference-helpers';

const TEMPLATE_FORBIDDEN =
  'This operation is forbidden. Please reload and select a template by clicking on the template you want to modify';

test('an admin edits a mail template with its preview; saving with none selected is forbidden @smoke', async ({ page, request }) => {
  // The account-deletion mail's template (each mail event's template is a reference row), as the API has it.
  const { token } = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const found = await api(request, '/search-dive', { keyIndex: 16, value: 'Your account deletion request', targets: ['subject'] }, token);
  const template = (found.HLL as { id: number; subject: string; from_email: string }[]).find((t) => t.subject === 'Your account deletion request')!;
  await signedIn(page, DEMO.admin);
  await page.goto('/mail-templates');
  await page.getByRole('button', { name: 'Explore' }).click();
  await expect(page.getByRole('tab', { name: 'Editor' })).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, TEMPLATE_FORBIDDEN)).toBeVisible();

  await row(page, 'Your account deletion request').getByText('Your account deletion request').click();
  await expect(page.getByRole('heading', { name: `Editing Your account deletion request (#${template.id})` })).toBeVisible();
  const subject = unique('Shipped: ');
  await page.getByLabel('subject *').fill(subject);
  await page.getByLabel('message *').fill('Hello,\nyour parcel left our warehouse.');
  const preview = page.getByRole('region', { name: /Preview/ });
  await expect(preview).toContainText(`Subject: ${subject}`);
  await expect(preview).toContainText('your parcel left our warehouse.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Template updated successfully')).toBeVisible();
  await expect(row(page, subject)).toContainText(template.from_email);

  await page.getByRole('tab', { name: 'Control' }).click();
  await page.getByRole('radio', { name: 'Inactive' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(page, 'Template status updated successfully')).toBeVisible();
  await expect(row(page, subject).getByRole('img', { name: 'Inactive' })).toBeVisible();
});

test('an admin deactivates a subscription; a subscription of no shop shows a blank shop id', async ({ page, request }) => {
  // Two active subscriptions of the test's own, told apart by their payment gateway: one of no shop (0), one of a shop.
  const { token } = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const shop = await newShop(request, token, await newCategory(request));
  const subscription = (shopId: number, gateway: string) => api(request, '/subcription', {
    shop_id: shopId, type: 'advert', nature: 'banner', period: 'month', unit: '1', total_clicks: 10, amount: 5, currency: 'USD',
    payment_gateway: gateway, start_date: '2026-03-01', end_date: '2026-04-01', is_active: 1,
  }, token);
  const [noShopGateway, shopGateway] = [unique('Gateway '), unique('Gateway ')];
  expect((await subscription(0, noShopGateway)).status).toBe(true);
  expect((await subscription(shop.id, shopGateway)).status).toBe(true);
  await signedIn(page, DEMO.admin);
  await page.goto('/subscriptions');
  const noShop = row(page, noShopGateway);
  // Cells: selection box, End date, Payment gateway, Shop id…
  await expect(noShop.getByRole('cell').nth(3)).toHaveText('');
  const active = row(page, shopGateway);
  await expect(active.getByRole('cell').nth(3)).toHaveText(String(shop.id));
  await expect(active.getByRole('img', { name: 'Active', exact: true })).toBeVisible();
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

test('plans and shipping classes are update-only, their currency fixed to USD', async ({ page, request }) => {
  // Plans cannot be made (create: none): the first one the API lists, and an amount it does not have yet.
  const { token } = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const plan = (await api(request, '/subcriptionPlans', { page: 1 }, token)).HLL.data[0] as { id: number; amount: number };
  const amount = String(Number(plan.amount) + 1);
  const open = page.getByRole('button', { name: `Open record ${plan.id}`, exact: true });
  const planRow = table(page).getByRole('row').filter({ has: open });
  await signedIn(page, DEMO.admin);
  await page.goto('/subscription-plans/create');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    notice(page, 'This operation is forbidden. Please reload and select a Subscription Plan by clicking on the Subscription Plan you want to modify'),
  ).toBeVisible();
  await open.click();
  // A plan has no name: its heading names its id.
  await expect(page.getByRole('heading', { name: `Editing #${plan.id}`, exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: /Currency \( USD only \)/ })).toHaveText('USD');
  await page.getByLabel('amount *').fill(amount);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Subscription plan updated successfully')).toBeVisible();
  await expect(planRow.getByRole('cell', { name: amount, exact: true })).toBeVisible();

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
  const sender = await registered(request, unique('Asker '));
  const title = unique('Late delivery ');
  expect((await api(request, '/support', { title, message: 'My order has not arrived yet.', country: 'Ghana' }, sender.token)).status).toBe(true);
  await signedIn(page, DEMO.admin);
  await page.goto('/support');
  await search(page, title);
  await expect(row(page, title)).toContainText(sender.name);
  await row(page, title).getByText(title).click();
  await expect(page.getByRole('region', { name: 'Editing panel' })).toContainText('My order has not arrived yet.');

  const seller = await apiLogin(request, DEMO.seller.email, DEMO.seller.password);
  expect((await api(request, '/supports', { page: 1 }, seller.token)).status).toBe(false);
  expect((await api(request, '/templatess', { page: 1 }, seller.token)).status).toBe(false);
});

test('a seller subscribes a shop on Packages; an admin activates it on Subscriptions', async ({ page, pageOfItsOwn, request }) => {
  // Two people sign in one after the other.
  const user = await registered(request, unique('Package Seller '));
  const category = await newCategory(request);
  const shopName = (await newShop(request, user.token, category, unique('Package Shop '))).name;
  // A second, deactivated shop is shown but cannot be picked.
  const closed = await newShop(request, user.token, category, unique('Closed Shop '));
  const closedName = closed.name;
  expect((await api(request, '/shop/status', { is_active: 0, id: closed.id }, user.token)).status).toBe(true);
  // The first package offered, whichever it is.
  const plan = ((await api(request, '/packages', {}, user.token)).HLL.plans as { type: string; nature: string; amount: number; unit: string; period: string }[])[0];
  const title = `${plan.type} · ${plan.nature}`;

  await signedIn(page, { email: user.email, password: user.password });
  await page.getByRole('navigation', { name: 'Sidebar' }).getByRole('menuitem', { name: 'Packages' }).click();
  await expect(page).toHaveURL(/\/packages$/);
  const card = page.getByRole('article', { name: title });
  await expect(card).toContainText(`For ${plan.unit} ${plan.period}`);
  await card.getByRole('combobox', { name: 'Shop' }).click();
  await expect(page.getByRole('option', { name: `${closedName} (deactivated)` })).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('option', { name: shopName }).click();
  await card.getByRole('button', { name: 'Subscribe' }).click();
  // Nothing is sent before the seller agrees to the price.
  const confirm = page.getByRole('dialog', { name: 'Subscribe to this package?' });
  await expect(confirm).toContainText(`Subscribe ${shopName} to ${title} for $${plan.amount.toFixed(2)}, for ${plan.unit} ${plan.period}?`);
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
  const asAdmin = await pageOfItsOwn();
  await signedIn(asAdmin, DEMO.admin);
  await asAdmin.goto(`/subscriptions/${subscription.id}`);
  await asAdmin.getByRole('radio', { name: 'Active', exact: true }).check();
  await asAdmin.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(asAdmin, 'Subscription status updated successfully')).toBeVisible();

  await page.reload();
  await expect(mine.getByRole('row').filter({ hasText: shopName })).toContainText('Active');

  // On a phone each subscription stands as lines, its state (the last column) in sight: nothing to scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  const table = mine.getByRole('table', { name: 'Your subscriptions' });
  await expect(table.locator('thead')).toBeHidden();
  const state = table.getByRole('row').filter({ hasText: shopName }).getByText('Active', { exact: true });
  await expect(state).toBeVisible();
  for (const shown of [table, state]) {
    const box = (await shown.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
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
  // The address changes as the link is followed; the screen it leaves stays until the next one is
  // drawn (its code may still be on its way), so the search waits for the Subcategories screen.
  await expect(page.getByRole('link', { name: 'category', exact: true })).toBeVisible();
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
  await expect(page.getByRole('link', { name: 'Subcategories' })).toBeVisible();
  await search(page, to);
  await expect(row(page, to)).toContainText(renamed);
  await search(page, from);
  await expect(row(page, from)).not.toContainText(renamed);
});
