/**
 * The browser tests' `test`: Playwright's, with `pageOfItsOwn`, a page in a browser context of its
 * own (a second person at another browser, or a browser with other settings). Every context it opens
 * is closed as the test ends, whether the test passed or failed: a page left open would hold its
 * event streams and polls through every later test of the worker (Playwright closes only the
 * contexts of its own fixtures). The specs open no other context (eslint.config.js).
 */
import { test as base, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';

export { expect } from '@playwright/test';

/** Opens a page in a new browser context, with these settings besides the project's. */
export type PageOfItsOwn = (options?: BrowserContextOptions) => Promise<Page>;

export const test = base.extend<{ pageOfItsOwn: PageOfItsOwn }>({
  pageOfItsOwn: async ({ browser }, give) => {
    const opened: BrowserContext[] = [];
    await give(async (options) => {
      const context = await browser.newContext(options);
      opened.push(context);
      return context.newPage();
    });
    await Promise.all(opened.map((context) => context.close()));
  },
});
