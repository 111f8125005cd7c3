/**
 * The schedule of the purge and the sweeps (server/maintenance.ts `repeat`): never two runs at once,
 * errors reported and the schedule kept, and a stop that waits for the run in progress.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { repeat } from '../../server/maintenance';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A run that ends when the test says so, and what it was given. */
function controlledWork() {
  const runs: { stopping: () => boolean; end: (error?: Error) => void }[] = [];
  const work = (stopping: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      runs.push({ stopping, end: (error) => (error ? reject(error) : resolve()) });
    });
  return { runs, work };
}

describe('a repeated run', () => {
  it('starts at once and then every period, but never while the last run is still going', async () => {
    const { runs, work } = controlledWork();
    const stop = repeat(work, 1000, () => undefined);
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3500);
    expect(runs).toHaveLength(1);
    runs[0].end();
    await vi.advanceTimersByTimeAsync(499);
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(2);
    runs[1].end();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(3);
    runs[2].end();
    await stop();
  });

  it('reports a failed run and goes on', async () => {
    const { runs, work } = controlledWork();
    const errors: unknown[] = [];
    const stop = repeat(work, 1000, (error) => errors.push(error));
    runs[0].end(new Error('the database went away'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors).toEqual([new Error('the database went away')]);
    expect(runs).toHaveLength(2);
    runs[1].end();
    await stop();
  });

  it('stopping tells the run in progress, waits for it to end, and starts none after', async () => {
    const { runs, work } = controlledWork();
    const stop = repeat(work, 1000, () => undefined);
    expect(runs[0].stopping()).toBe(false);
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    expect(runs[0].stopping()).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    runs[0].end();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toHaveLength(1);
  });

  it('a stop between two runs resolves at once', async () => {
    const { runs, work } = controlledWork();
    const stop = repeat(work, 1000, () => undefined);
    runs[0].end();
    await vi.advanceTimersByTimeAsync(10);
    await stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toHaveLength(1);
  });
});
