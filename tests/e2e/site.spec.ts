/**
 * What a phone, a search engine and a screen reader get of the site: the dashboard's charts are drawn
 * as they come into view and keep their size on a phone (chart.js sizes a canvas to its box, and a box
 * that grew with its canvas made the charts grow without end below the md breakpoint); robots are
 * kept out; the brand link is named by the words it shows.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, signIn } from './helpers';

test('robots are kept out of the console, and the page describes itself', async ({ page, request }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
  expect((await robots.text()).split('\n')).toEqual(expect.arrayContaining(['User-agent: *', 'Disallow: /']));
  await page.goto('/login');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /marketplace/i);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
});

test('the top bar is painted before the console\'s JavaScript runs', async ({ pageOfItsOwn }) => {
  const page = await pageOfItsOwn({ javaScriptEnabled: false });
  await page.goto('/login');
  const bar = page.locator('#root > .shell-bar');
  await expect(bar).toBeVisible();
  await expect(bar).toHaveText('Marketplace');
});

test('the files a page starts with are asked for by the page and marked to be compiled whole as they arrive, a file loaded later is not', async ({ request }) => {
  const html = await (await request.get('/login')).text();
  const start = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((m) => m[1]);
  expect(start.length).toBeGreaterThan(1);
  const hint = '//# allFunctionsCalledOnLoad\n';
  const texts = await Promise.all(start.map(async (file) => (await request.get(file)).text()));
  texts.forEach((text, i) => expect(text.startsWith(hint), start[i]).toBe(true));
  const named = (text: string) => [...text.matchAll(/"(assets\/[^"]+\.js)"/g)].map((m) => `/${m[1]}`);
  // The entry loads the console in stages: the page itself asks for every file they need.
  expect(named(texts[0]).length).toBeGreaterThan(0);
  for (const file of named(texts[0])) expect(start, file).toContain(file);
  // The stages name the files loaded later (screens, a language's words): one of those, not among the start's.
  const later = texts.flatMap(named).find((file) => !start.includes(file));
  expect(later).toBeDefined();
  expect((await (await request.get(later!)).text()).startsWith(hint)).toBe(false);
});

test('the brand link is named by its visible words (WCAG 2.5.3)', async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page.getByRole('link', { name: 'Marketplace', exact: true })).toBeVisible();
});

test('the dashboard and a list never skip a heading level, and start at one h1', async ({ page }) => {
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  const levels = () => page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));
  await expect(page.locator('main canvas')).toHaveCount(3);
  for (const path of ['/', '/products']) {
    if (path !== '/') await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    const found = await levels();
    expect(found[0], path).toBe(1);
    for (let i = 1; i < found.length; i++) expect(found[i] - found[i - 1], `${path}: ${found.join(' ')}`).toBeLessThanOrEqual(1);
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  /** Lets the page lay out and chart.js answer its resize observers: a number of frames, not a time. */
  const frames = (page: Page, n: number) => page.evaluate((count) => new Promise<void>((resolve) => {
    const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
    step(count);
  }), n);

  test('the charts below the cards are drawn as they come into view, not while the dashboard opens', async ({ page }) => {
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    const charts = page.locator('main canvas');
    const last = page.getByRole('heading', { name: 'Top 5 shops by revenue' });
    // Their titles and boxes are there, a screen and more below the cards, and stay empty.
    await expect(last).toBeAttached();
    await expect(last).not.toBeInViewport();
    await frames(page, 10);
    await expect(charts).toHaveCount(0);
    await last.scrollIntoViewIfNeeded();
    await expect(charts).toHaveCount(3);
    await expect(page.getByRole('img', { name: 'Orders by status' })).toBeVisible();
  });

  test("a chart's height stays put at 390 px wide", async ({ page }) => {
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    const charts = page.locator('main canvas');
    await page.getByRole('heading', { name: 'Top 5 shops by revenue' }).scrollIntoViewIfNeeded();
    await expect(charts).toHaveCount(3);
    const heights = () => charts.evaluateAll((canvases) => canvases.map((c) => Math.round(c.getBoundingClientRect().height)));
    await frames(page, 5);
    const first = await heights();
    for (const [i, h] of first.entries()) {
      expect(h, `chart ${i}`).toBeGreaterThan(100);
      expect(h, `chart ${i}`).toBeLessThanOrEqual(300);
    }
    await frames(page, 60);
    expect(await heights()).toEqual(first);
    // The page itself does not keep growing either.
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    await frames(page, 60);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(pageHeight);
  });
});
