/**
 * A second factor in Chromium (issue 26): an admin turns authenticator codes on from the account page
 * (the QR code shown), signs out, and signs in with the password and a code; a wrong code and a
 * replayed one are refused, a recovery code works once. A seller's bank details change only after
 * the step-up dialog took a fresh code.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Secret, TOTP } from 'otpauth';
import { DEMO, api, apiLogin, newCategory, signIn, sidebar, unique } from './helpers';

const PASSWORD = 'juniper-pass-91';

/** A new admin (holding 'users'), made by the demo admin. */
async function newAdmin(page: Page) {
  const email = `${unique('mfa')}@example.com`;
  const phone = `+1${Date.now().toString().slice(-9)}${Math.floor(Math.random() * 9)}`;
  const made = await api(page.request, '/user', { name: 'Second Factor Admin', email, phone, password: PASSWORD, abilities: '[1,2]', source: 'inbuilt' });
  expect(made.status).toBe(true);
  const admin = await apiLogin(page.request, DEMO.admin.email, DEMO.admin.password);
  expect((await api(page.request, '/user/edit', { id: made.detail.id, abilities: '[1,2,3]' }, admin.token)).status).toBe(true);
  expect((await api(page.request, '/user/assign-role', { id: made.detail.id, granted_accesses: ['users'] }, admin.token)).status).toBe(true);
  return email;
}

/** The code of the authenticator app for a time (ms). */
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });

async function signOut(page: Page) {
  // The top bar hides while the page is scrolled down.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  await page.getByRole('menuitem', { name: 'logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('an admin turns on authenticator codes, then signs in with the password and a code', async ({ page }) => {
  test.setTimeout(90_000);
  const email = await newAdmin(page);
  await signIn(page, email, PASSWORD);
  await expect(sidebar(page)).toBeVisible();
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Second factor' });
  await expect(section.getByText('Authenticator codes are off.')).toBeVisible();
  await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const qr = section.getByRole('img', { name: 'QR code for your authenticator app' });
  await expect(qr).toBeVisible();
  // A drawn QR code, not a broken image.
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
  const secret = (await section.getByTestId('totp-secret').textContent())!;
  await section.screenshot({ path: test.info().outputPath('second-factor-qr.png') });
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  await section.getByLabel('Code').fill('000000' === codeAt(secret, Date.now()) ? '111111' : '000000');
  await section.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('The code is not correct; please try again')).toBeVisible();
  await section.getByLabel('Code').fill(codeAt(secret, Date.now()));
  await section.getByRole('button', { name: 'Confirm' }).click();
  const codes = section.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  await page.screenshot({ path: test.info().outputPath('second-factor-recovery.png'), fullPage: true });
  await section.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(section.getByText('Authenticator codes are on.')).toBeVisible();
  await expect(section.getByText('Unused recovery codes: 10')).toBeVisible();

  await signOut(page);
  // The password alone asks for the code; the code of the next time step (one step of drift) opens.
  await signIn(page, email, PASSWORD);
  const code = page.getByLabel('Code');
  await expect(code).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  const next = codeAt(secret, Date.now() + 30_000);
  await code.fill(next);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(sidebar(page)).toBeVisible();

  // The same code again is refused; a recovery code opens, once.
  await signOut(page);
  await signIn(page, email, PASSWORD);
  await page.getByLabel('Code').fill(next);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('The code is not correct; please try again')).toBeVisible();
  await page.getByLabel('Code').fill(recovery[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(sidebar(page)).toBeVisible();
  await signOut(page);
  await signIn(page, email, PASSWORD);
  await page.getByLabel('Code').fill(recovery[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('The code is not correct; please try again')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('a seller with a second factor changes bank details only after confirming a fresh code', async ({ page }) => {
  const email = `${unique('stepup')}@example.com`;
  const phone = `+1${Date.now().toString().slice(-9)}${Math.floor(Math.random() * 9)}`;
  const made = await api(page.request, '/user', { name: 'Step-up Seller', email, phone, password: PASSWORD, abilities: '[1,2]', source: 'inbuilt' });
  const token = made.detail.token as string;
  const shop = await api(page.request, '/shop', {
    name: unique('Step-up shop '), description: 'Durable goods', category_id: (await newCategory(page.request)).id,
    address: { street_name: '1 Test Road', zip: '1000', country: 'Nigeria' },
    bank: { bank_name: 'Bank', bank_country: 'Nigeria', account_name: 'Test', account_number: '1' },
  }, token);
  expect(shop.status).toBe(true);
  const { secret } = (await api(page.request, '/user/second-factor', { action: 'totp-begin' }, token)).detail;
  const confirmed = await api(page.request, '/user/second-factor', { action: 'totp-confirm', code: codeAt(secret, Date.now()) }, token);
  const recovery = confirmed.detail.recovery_codes as string[];

  await signIn(page, email, PASSWORD);
  await page.getByLabel('Code').fill(codeAt(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(sidebar(page)).toBeVisible();
  // The sign-in's factor is more than 5 minutes old (the server's own record of it, moved back).
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, 'marketplace.sqlite'));
  try {
    db.prepare('update sessions set second_factor_at = 0 where user_id = ?').run(made.detail.id);
  } finally {
    db.close();
  }
  await page.goto('/bank');
  const bank = page.getByRole('region', { name: 'Bank details' });
  await bank.getByLabel('swift code *').fill('HBUKGB4B');
  await bank.getByLabel('sort code *').fill('40-47-84');
  await bank.getByLabel('account number *').fill('99887766');
  await bank.getByRole('button', { name: 'Save bank details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('step-up.png') });
  // A wrong code keeps the dialog open; a good one (here a recovery code: the authenticator's next
  // code would mean waiting for the next 30 seconds) saves the details.
  await dialog.getByLabel('Code').fill('000000');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('The code is not correct; please try again')).toBeVisible();
  await dialog.getByLabel('Code').fill(recovery[0]);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Shop updated successfully')).toBeVisible();
  const saved = await api(page.request, '/shopz', {}, token);
  expect(saved.HLL[0].bank.account_number).toBe('99887766');
});
