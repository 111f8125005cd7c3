/**
 * Every route the console knows behind the sign-in (read from the registry: screens, seller
 * variants, pages), walked by each role: those the role must not open show Access denied, the others
 * open. What each role may open is worked out here from the profile and the registry's tokens, not
 * from the console's own check.
 */
import { expect, test, type Page } from '@playwright/test';
import { isAlwaysAllowed, parseAccesses, type ConsoleRoute } from '../../contract';
import { loadRegistry } from '../../server/registry';
import { DEMO, api, apiLogin, signedIn } from './helpers';

const registry = await loadRegistry();

/** Moves within the console as a link does (no reload of the page). */
async function open(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

async function walk(page: Page, allowed: (route: ConsoleRoute) => boolean) {
  const denied = page.getByRole('heading', { name: 'Access denied' });
  const refused: string[] = [];
  for (const route of registry.routes) {
    await open(page, route.path);
    if (allowed(route)) {
      await expect(page.getByText('The page is loading, just a moment please')).toHaveCount(0);
      await expect(page, route.path).toHaveURL((url) => url.pathname === route.path);
      await expect(denied, route.path).toHaveCount(0);
    } else {
      refused.push(route.path);
      await expect(denied, route.path).toBeVisible();
      await expect(page).toHaveURL(/\/access-denied$/);
    }
  }
  return refused;
}

test('a seller is refused every route but their own screens and pages', async ({ page }) => {
  await signedIn(page, DEMO.seller);
  const refused = await walk(page, (route) => route.token === undefined || registry.sellerTokens.includes(route.token));
  expect(refused).toContain('/chat-logs');
});

test('a partial admin is refused every route whose access they do not hold', async ({ page }) => {
  const pat = { email: 'pat@example.com', password: 'pat12345' };
  const session = await apiLogin(page.request, pat.email, pat.password);
  const granted = parseAccesses((await api(page.request, '/users', { id: session.id }, session.token)).detail.granted_accesses);
  await signedIn(page, pat);
  const refused = await walk(
    page,
    (route) => route.token === undefined || isAlwaysAllowed(route.token) || granted.some((token) => token.toLowerCase() === route.token!.toLowerCase()),
  );
  expect(refused).toContain('/chat-logs');
});

test('a buyer opens only the pages every signed-in user has and their own', async ({ page }) => {
  await signedIn(page, DEMO.buyer);
  const refused = await walk(page, (route) => route.token === undefined || registry.buyerTokens.includes(route.token));
  expect(refused).toContain('/chat-logs');
});
