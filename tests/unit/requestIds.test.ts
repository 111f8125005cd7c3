import { describe, expect, it } from 'vitest';
import { requestIds } from '../../server/logging';

describe('request ids', () => {
  it('are 16 hex digits, each new within a server and across servers, past a pool of 1,024', () => {
    const ours = requestIds();
    const theirs = requestIds();
    const ids = Array.from({ length: 5000 }, (_, i) => (i % 2 ? ours() : theirs()));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('tell nothing of how many came before: two in a row differ in more than their last digits', () => {
    const next = requestIds();
    const ids = Array.from({ length: 2048 }, next);
    // A count shares its first digits with the next id almost always; random ids almost never.
    const sharedPrefixes = ids.slice(1).filter((id, i) => id.slice(0, 10) === ids[i].slice(0, 10)).length;
    expect(sharedPrefixes).toBe(0);
  });
});
