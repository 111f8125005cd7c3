// @vitest-environment jsdom
/**
 * The build's module preload helper (src/modulePreload.ts): an import starts at once, and the links
 * that ask ahead for the files it needs are added a slice at a time, never inside the caller's task,
 * each file asked for once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import path from 'node:path';
import type { Plugin } from 'vite';
import viteConfig from '../../vite.config';
import { __vitePreload } from '../../src/modulePreload';

const linked = (name: string) => Array.from(document.head.querySelectorAll('link[rel="modulepreload"]')).filter((l) => (l as HTMLLinkElement).href.includes(name));
const files = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `assets/${prefix}-${i}.js`);

let clock = 0;
beforeEach(() => {
  vi.useFakeTimers();
  // Each reading of the clock is 5 ms after the one before: a slice (8 ms) adds two links.
  vi.spyOn(performance, 'now').mockImplementation(() => (clock += 5));
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the module preload helper', () => {
  // First, while the helper has not read the page: the page as served links some files itself.
  it('starts the import at once, adds no link inside the caller’s task, and none for a file the page links', async () => {
    const served = document.createElement('link');
    served.rel = 'modulepreload';
    served.href = '/assets/served-0.js';
    document.head.appendChild(served);
    const module = { default: 'screen' };
    const base = vi.fn(async () => module);
    const loading = __vitePreload(base, [...files('first', 3), 'assets/served-0.js']);
    expect(base).toHaveBeenCalledTimes(1);
    expect(linked('first-')).toHaveLength(0);
    await expect(loading).resolves.toBe(module);
    vi.runAllTimers();
    expect(linked('first-')).toHaveLength(3);
    expect(linked('served-0')).toHaveLength(1);
  });

  it('adds the links a slice at a time, in order, as module preloads', () => {
    void __vitePreload(async () => ({}), files('sliced', 5));
    vi.advanceTimersToNextTimer();
    expect(linked('sliced-').map((l) => (l as HTMLLinkElement).href)).toEqual(['http://localhost:3000/assets/sliced-0.js', 'http://localhost:3000/assets/sliced-1.js']);
    vi.advanceTimersToNextTimer();
    expect(linked('sliced-')).toHaveLength(4);
    vi.advanceTimersToNextTimer();
    expect(linked('sliced-')).toHaveLength(5);
    expect(vi.getTimerCount()).toBe(0);
    const link = linked('sliced-0')[0] as HTMLLinkElement;
    expect(link.crossOrigin).toBe('');
  });

  it('asks for a file once, whichever import needs it', () => {
    void __vitePreload(async () => ({}), ['assets/shared-0.js', 'assets/first-0.js']);
    void __vitePreload(async () => ({}), ['assets/shared-0.js', 'assets/shared-1.js']);
    vi.runAllTimers();
    expect(linked('shared-0')).toHaveLength(1);
    expect(linked('shared-1')).toHaveLength(1);
    expect(linked('first-0')).toHaveLength(1);
  });

  it('names a file once: a name the build passes again is not made into a URL again', () => {
    void __vitePreload(async () => ({}), ['assets/named-0.js', 'assets/named-1.js']);
    const made = vi.fn();
    const Url = URL;
    vi.stubGlobal('URL', class extends Url {
      constructor(url: string | URL, base?: string | URL) {
        super(url, base);
        made(String(url));
      }
    });
    void __vitePreload(async () => ({}), ['assets/named-0.js', 'assets/named-1.js', 'assets/named-2.js']);
    vi.unstubAllGlobals();
    vi.runAllTimers();
    expect(made.mock.calls.map(([url]) => url)).toEqual(['/assets/named-2.js']);
    expect(linked('named-')).toHaveLength(3);
  });

  it('names the files from the importing file when the build gives it (a relative base)', () => {
    void __vitePreload(async () => ({}), ['./relative-0.js'], 'http://localhost:3000/app/assets/importer.js');
    vi.runAllTimers();
    expect((linked('relative-0')[0] as HTMLLinkElement).href).toBe('http://localhost:3000/app/assets/relative-0.js');
  });

  it('an import with nothing to ask for ahead adds nothing', () => {
    const before = document.head.querySelectorAll('link').length;
    void __vitePreload(async () => ({}), []);
    void __vitePreload(async () => ({}));
    expect(vi.getTimerCount()).toBe(0);
    expect(document.head.querySelectorAll('link')).toHaveLength(before);
  });
});

describe('the build', () => {
  it('takes this helper in place of Vite’s own', async () => {
    const config = await (viteConfig as (env: { command: 'build'; mode: string }) => { plugins: Plugin[] })({ command: 'build', mode: 'production' });
    const resolver = config.plugins.flat().find((plugin) => plugin.name === 'sliced-module-preload')?.resolveId as (id: string) => unknown;
    expect(resolver('\0vite/preload-helper.js')).toBe(path.resolve('src/modulePreload.ts'));
    expect(resolver('react')).toBeNull();
  });
});
