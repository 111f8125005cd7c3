/**
 * Passkeys in Chromium (issue 26), with a virtual authenticator (the DevTools protocol's WebAuthn
 * domain): an admin adds a passkey on the account page, signs out, and signs in with the password
 * and the passkey, then with the passkey alone. Passkeys need a domain, so this test uses the
 * console at localhost.
 */
import { expect, test } from './fixtures';
import { DEMO, api, apiLogin, sidebar, unique } from './helpers';

const PASSWORD = 'lilac-pass-91';

test('an admin adds a passkey and signs in with it, after the password and instead of it', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const origin = baseURL!.replace('127.0.0.1', 'localhost');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  const email = `${unique('passkey')}@example.com`;
  const phone = `+1${Date.now().toString().slice(-9)}${Math.floor(Math.random() * 9)}`;
  const made = await api(page.request, '/user', { name: 'Passkey Admin', email, phone, password: PASSWORD, abilities: '[1,2]', source: 'inbuilt' });
  const admin = await apiLogin(page.request, DEMO.admin.email, DEMO.admin.password);
  expect((await api(page.request, '/user/edit', { id: made.detail.id, abilities: '[1,2,3]' }, admin.token)).status).toBe(true);

  const signIn = async () => {
    await page.goto(`${origin}/login`);
    await page.getByPlaceholder('Email or Phone Number e.g +44xxx').fill(email);
    await page.getByLabel('Password', { exact: false }).first().fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  await signIn();
  await expect(sidebar(page)).toBeVisible();
  await page.goto(`${origin}/account`);
  const section = page.getByRole('region', { name: 'Second factor' });
  await section.getByLabel('Passkey name').fill('Work laptop');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByRole('list', { name: 'Passkeys' }).getByText('Work laptop')).toBeVisible();
  // The first factor comes with recovery codes.
  await expect(section.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await section.screenshot({ path: test.info().outputPath('passkeys.png') });
  await section.getByRole('button', { name: 'I have saved my recovery codes' }).click();

  const signOut = async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Account', exact: true }).click();
    await page.getByRole('menuitem', { name: 'logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
  };
  await signOut();

  await signIn();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(sidebar(page)).toBeVisible();

  // The passkey alone, instead of the password: nothing typed.
  await signOut();
  await page.getByRole('button', { name: 'Continue with a passkey' }).click();
  await expect(sidebar(page)).toBeVisible();
});
