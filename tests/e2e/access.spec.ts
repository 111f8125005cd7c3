/**
 * Every route the console knows behind the sign-in (read from the registry: screens, seller
 * variants, pages), walked by each role: those the role must not open show Access denied, the others
 * open. What each role may open is worked out here from the profile and the registry's tokens, not
 * from the console's own check.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
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

/** A path no route names: its Not found page stands between two routes, so each answer seen is the next route's own. */
const NOWHERE = '/no-such-page';

/** What the screen shows, read at one instant: the path, and whether a screen is drawn or Access denied. */
const shown = (page: Page) =>
  page.evaluate(() => {
    const text = document.getElementById('main-content')?.textContent?.trim() ?? '';
    return { path: window.location.pathname, drawn: text !== '' && !text.includes('The page is loading'), denied: text.includes('Access denied') };
  });

async function walk(page: Page, allowed: (route: ConsoleRoute) => boolean) {
  const denied = page.getByRole('heading', { name: 'Access denied' });
  const notFound = page.getByRole('heading', { level: 1, name: '404!' });
  const refused: string[] = [];
  for (const route of registry.routes) {
    await open(page, NOWHERE);
    await expect(notFound).toBeVisible();
    await open(page, route.path);
    await expect(notFound).toHaveCount(0);
    if (allowed(route)) {
      // The route's check has answered and its screen is drawn: a refusal would have left the path.
      await expect.poll(() => shown(page), { message: route.path }).toEqual({ path: route.path, drawn: true, denied: false });
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
  // A buyer variant ('My purchases') lists the buyer's own orders: an admin is told access is denied.
  const buyerVariants = new Set(registry.resources.flatMap((resource) => (resource.buyer ? [resource.buyer.path] : [])));
  const refused = await walk(
    page,
    (route) => route.token === undefined
      || (!buyerVariants.has(route.path) && (isAlwaysAllowed(route.token) || granted.some((token) => token.toLowerCase() === route.token!.toLowerCase()))),
  );
  expect(refused).toEqual(expect.arrayContaining([...buyerVariants]));
  expect(refused).toContain('/chat-logs');
});

test('a buyer opens only the pages every signed-in user has and their own', async ({ page }) => {
  await signedIn(page, DEMO.buyer);
  const refused = await walk(page, (route) => route.token === undefined || registry.buyerTokens.includes(route.token));
  expect(refused).toContain('/chat-logs');
});
