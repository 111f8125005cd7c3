/**
 * Code fetched ahead while the browser is idle starts one import per idle moment: starting an import
 * is main-thread work (a link for each of its files), and all of a list screen's at once held a
 * phone's main thread in one long task. A cancel stops the imports not started yet.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadedNow, preloadWhenIdle } from '../../src/screens/loaded';

const idle: (() => void)[] = [];
beforeEach(() => {
  vi.stubGlobal('requestIdleCallback', (work: () => void) => idle.push(work));
  vi.stubGlobal('cancelIdleCallback', (handle: number) => void (idle[handle - 1] = () => undefined));
});
afterEach(() => {
  vi.unstubAllGlobals();
  idle.length = 0;
});

/** Runs the idle callbacks the page has asked for so far, as the browser's next idle moment would. */
const nextIdle = () => {
  const pending = idle.splice(0);
  expect(pending).toHaveLength(1);
  for (const work of pending) work();
};

const module = (name: string) => vi.fn(async () => ({ default: name }));

describe('preloadWhenIdle', () => {
  it('starts no import until the browser is idle, then one per idle moment, in order', async () => {
    const loaders = [module('screen'), module('images'), module('status')];
    preloadWhenIdle(loaders);
    expect(loaders.map((l) => l.mock.calls.length)).toEqual([0, 0, 0]);
    nextIdle();
    expect(loaders.map((l) => l.mock.calls.length)).toEqual([1, 0, 0]);
    nextIdle();
    expect(loaders.map((l) => l.mock.calls.length)).toEqual([1, 1, 0]);
    nextIdle();
    expect(loaders.map((l) => l.mock.calls.length)).toEqual([1, 1, 1]);
    expect(idle).toHaveLength(0);
    await Promise.resolve();
    expect(loadedNow(loaders[2])).toEqual({ default: 'status' });
  });

  it('a cancel stops the imports not started yet', () => {
    const loaders = [module('screen'), module('images')];
    const cancel = preloadWhenIdle(loaders);
    nextIdle();
    cancel();
    for (const work of idle.splice(0)) work();
    expect(loaders.map((l) => l.mock.calls.length)).toEqual([1, 0]);
  });

  it('an import already started is not started again', () => {
    const screen = module('screen');
    preloadWhenIdle([screen]);
    nextIdle();
    preloadWhenIdle([screen]);
    nextIdle();
    expect(screen).toHaveBeenCalledTimes(1);
  });
});
