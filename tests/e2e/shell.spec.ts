import { expect, test } from './fixtures';
import { ADMIN_MENU, DEMO, SELLER_MENU, BUYER_MENU, api, apiLogin, expectMenu, outbox, sidebar, signIn, unique } from './helpers';

test('a new seller registers, signs out, signs in and sees the seller sidebar @smoke', async ({ page }) => {
  const email = `${unique('seller')}@example.com`;
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await expect(sidebar(page)).toHaveCount(0);
  await page.getByLabel('Full Name').fill('Nia Newseller');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Phone Number').fill(`+1555${Math.floor(Math.random() * 1e7)}`);
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByRole('checkbox', { name: /Terms and Conditions/ }).check();
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Your password must be minimum 8 digits')).toBeVisible();

  await page.getByLabel('Password', { exact: true }).fill('a-good-password');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectMenu(page, SELLER_MENU);

  await page.getByRole('button', { name: /profile|user menu|account/i }).click();
  await page.getByRole('menuitem', { name: 'logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();

  await signIn(page, email, 'a-good-password');
  await expect(page).toHaveURL(/\/$/);
  await expectMenu(page, SELLER_MENU);
  await expect(sidebar(page).getByRole('menuitem', { name: 'Dashboard' })).toHaveClass(/active|Mui-selected/);
});

test('the demo admin sees every admin entry with the spec spellings @smoke', async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expectMenu(page, ADMIN_MENU);
});

test('a wrong password shows the server message and stays on sign in', async ({ page }) => {
  await signIn(page, DEMO.admin.email, 'not-the-password');
  await expect(page.getByText('The email, phone number or password is not correct')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('sign-in sent with empty fields flags each as Required, focuses the first, and sends nothing', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (r) => void (r.url().includes('/api/') && calls.push(r.url())));
  await page.goto('/login');
  const credential = page.getByPlaceholder('Email or Phone Number e.g +44xxx');
  const password = page.getByLabel('Password', { exact: false }).first();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Required')).toHaveCount(2);
  await expect(credential).toBeFocused();
  await credential.fill(DEMO.admin.email);
  await expect(page.getByText('Required')).toHaveCount(1);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(password).toBeFocused();
  expect(calls.filter((url) => url.endsWith('/user/terminal'))).toEqual([]);
  await password.fill(DEMO.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(sidebar(page)).toBeVisible();
});

test('a blacklisted user cannot sign in', async ({ page, request }) => {
  const email = `${unique('black')}@example.com`;
  const reg = await api(request, '/user', { name: 'Blocked', email, phone: `+1555${Math.floor(Math.random() * 1e7)}`, password: 'uncommon-pass-7', abilities: '[1,2]', source: 'inbuilt' });
  expect(reg.status).toBe(true);
  const admin = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  expect((await api(request, '/user/status', { id: reg.detail.id, is_active: 0 }, admin.token)).status).toBe(true);

  await signIn(page, email, 'uncommon-pass-7');
  await expect(page.getByText('This account has been deactivated; please contact support')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('an unknown path shows the not-found page @smoke', async ({ page }) => {
  await signIn(page, DEMO.seller.email, DEMO.seller.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/no/such/page');
  await expect(page.getByText('404!')).toBeVisible();
  await expect(page.getByText('The page is not found')).toBeVisible();
});

test('a forgotten password is reset through the mailed link', async ({ page, request }) => {
  const email = `${unique('reset')}@example.com`;
  expect((await api(request, '/user', { name: 'Rita Reset', email, phone: `+1555${Math.floor(Math.random() * 1e7)}`, password: 'old-password', abilities: '[1,2]', source: 'inbuilt' })).status).toBe(true);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('If an account exists for this email, a link to reset the password has been sent to it')).toBeVisible();

  const link = /https?:\/\/\S+\/forgot-password\?token=[\w-]+/.exec(outbox(email).at(-1)!.body)![0];
  await page.goto(new URL(link).pathname + new URL(link).search);
  await page.getByLabel(/password/i).first().fill('new-password');
  await page.getByRole('button', { name: /reset|save|change/i }).click();
  await expect(page.getByText('Your password has been changed; please sign in')).toBeVisible();

  await signIn(page, email, 'new-password');
  await expect(page).toHaveURL(/\/$/);
  await expectMenu(page, SELLER_MENU);
});

test('a buyer sees the dashboard, the catalogue and their purchases, and no seller or admin screen', async ({ page }) => {
  await signIn(page, DEMO.buyer.email, DEMO.buyer.password);
  await expect(page).toHaveURL(/\/$/);
  await expectMenu(page, BUYER_MENU, { exact: true });
  for (const path of ['/my-orders', '/orders']) {
    await page.goto(path);
    await expect(page.getByText('Access denied')).toBeVisible();
  }
});
