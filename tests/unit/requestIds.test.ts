import { describe, expect, it } from 'vitest';
import { requestIds } from '../../server/logging';

describe('request ids', () => {
  it('are 16 hex digits, each new within a server and across servers', () => {
    const ours = requestIds();
    const theirs = requestIds();
    const ids = Array.from({ length: 5000 }, (_, i) => (i % 2 ? ours() : theirs()));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draw a new prefix when the count of 16,777,216 is used up, so the ids stay new', () => {
    const next = requestIds();
    const first = next();
    let last = first;
    for (let i = 1; i < 0x1000000; i++) last = next();
    expect(last.slice(0, 10)).toBe(first.slice(0, 10));
    expect(last.slice(10)).toBe('ffffff');
    const after = next();
    expect(after.slice(10)).toBe('000000');
    expect(after.slice(0, 10)).not.toBe(first.slice(0, 10));
  });
});
