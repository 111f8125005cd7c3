import { describe, expect, it } from 'vitest';
import { sharedReads } from '../../server/db';

/** A read that waits to be let go, numbering each one sent. */
function reads() {
  let sent = 0;
  const open: (() => void)[] = [];
  const read = () => {
    const n = ++sent;
    return new Promise<number>((resolve, reject) => open.push(() => (n === 3 ? reject(new Error('lost')) : resolve(n))));
  };
  return { read, sent: () => sent, release: () => open.shift()!() };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('sharedReads', () => {
  it('callers asking together share one read; a caller asking while it is on its way gets the next one', async () => {
    const r = reads();
    const shared = sharedReads(r.read);
    const a = shared();
    const b = shared();
    await tick();
    expect(r.sent()).toBe(1);
    // Asked after the first read was sent: it may not take that one's answer.
    const c = shared();
    const d = shared();
    await tick();
    expect(r.sent()).toBe(1);
    r.release();
    expect([await a, await b]).toEqual([1, 1]);
    await tick();
    expect(r.sent()).toBe(2);
    r.release();
    expect([await c, await d]).toEqual([2, 2]);
  });

  it('a failed read fails its callers only; the next caller reads again', async () => {
    const r = reads();
    const shared = sharedReads(r.read);
    const first = shared();
    await tick();
    r.release();
    expect(await first).toBe(1);
    const second = shared();
    await tick();
    r.release();
    expect(await second).toBe(2);
    const failing = shared();
    await tick();
    r.release();
    await expect(failing).rejects.toThrow('lost');
    const after = shared();
    await tick();
    r.release();
    expect(await after).toBe(4);
  });
});
