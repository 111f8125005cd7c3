/**
 * Issue 25: the Mail templates screen in Chromium. An admin sees the variables of a template's
 * event, previews it rendered with their sample values (a template that does not render says why),
 * sends it to themselves as a test mail, and sends a failed mail again from the 'Failed mails' tab.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './fixtures';
import { DEMO, outbox, signedIn, unique } from './helpers';
import { notice, row } from './reference-helpers';

test('an admin previews a template with its sample values and mails it to themselves', async ({ page }) => {
  await signedIn(page, DEMO.admin);
  await page.goto('/mail-templates');
  await row(page, 'New order {{ reference }}').getByText('New order {{ reference }}').click();
  const variables = page.getByRole('region', { name: 'Variables of this event' });
  await expect(variables).toContainText('{{ shop_name }} · Acme Outfitters');
  const preview = page.getByRole('region', { name: /Preview/ });
  await expect(preview).toContainText('Subject: New order MP-0A1B2C3D4E for Acme Outfitters');

  await page.getByLabel('subject *').fill('Order {{ refrence }}');
  await expect(preview).toContainText('The template cannot be shown: The subject is not a valid template: undefined variable: refrence');
  await expect(page.getByRole('button', { name: 'Send a test mail to me' })).toBeDisabled();

  const subject = unique('Sold ');
  await page.getByLabel('subject *').fill(`${subject} {{ reference }} <b>{{ shop_name }}</b>`);
  await expect(preview).toContainText(`Subject: ${subject} MP-0A1B2C3D4E <b>Acme Outfitters</b>`);
  await page.screenshot({ path: test.info().outputPath('template-preview.png'), fullPage: true });
  await page.getByRole('button', { name: 'Send a test mail to me' }).click();
  await expect(notice(page, `A test mail is on its way to ${DEMO.admin.email}`)).toBeVisible();
  expect(outbox(DEMO.admin.email).at(-1)).toMatchObject({ subject: `${subject} MP-0A1B2C3D4E <b>Acme Outfitters</b>` });
});

test('an admin sees a failed mail with its error and sends it again', async ({ page }) => {
  const to = `${unique('failed')}@example.com`;
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, 'marketplace.sqlite'));
  try {
    const stamp = new Date().toISOString();
    db.prepare(
      `insert into mail_outbox (to_email, from_email, subject, body, serial, state, attempts, last_error, created_at, updated_at)
       values (?, 'hello@example.com', 'Welcome', 'Hello', 'WELCOME', 'failed', 8, '550 Mailbox unavailable', ?, ?)`,
    ).run(to, stamp, stamp);
  } finally {
    db.close();
  }
  await signedIn(page, DEMO.admin);
  await page.goto('/mail-templates');
  await page.getByRole('button', { name: 'Explore' }).click();
  await page.getByRole('tab', { name: 'Failed mails' }).click();
  const failed = page.getByRole('table', { name: 'Failed mails' }).getByRole('row').filter({ hasText: to });
  await expect(failed).toContainText('550 Mailbox unavailable');
  await page.screenshot({ path: test.info().outputPath('failed-mails.png'), fullPage: true });
  await failed.getByRole('button', { name: `Retry ${to}` }).click();
  await expect(notice(page, 'The mail will be sent again')).toBeVisible();
  await expect(failed).toHaveCount(0);
});
