// @vitest-environment jsdom
/** Which failed queries the console tries again (react-query's `retry` rule of src/queryClient.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { clearSession, setSession } from '../../authProvider/session';
import { retry } from '../../src/queryClient';

afterEach(() => clearSession());

describe('retry', () => {
  it("does not retry the server's refusal (a 4xx answer with a body), signed in or not", () => {
    setSession('token', 7);
    for (const status of [400, 401, 403, 404, 499]) expect(retry(0, new HttpError('no', status, { status: false }))).toBe(false);
    clearSession();
    expect(retry(0, new HttpError('no', 404, { status: false }))).toBe(false);
  });

  it('retries network failures and 5xx three times, then stops', () => {
    setSession('token', 7);
    for (const error of [new TypeError('Failed to fetch'), new HttpError('down', 500, { status: false }), new HttpError('proxy', 502, null)]) {
      expect([0, 1, 2].map((count) => retry(count, error))).toEqual([true, true, true]);
      expect(retry(3, error)).toBe(false);
    }
    expect(retry(0, new HttpError('proxy', 399, null))).toBe(true);
    expect(retry(0, new HttpError('proxy', 500, null))).toBe(true);
  });

  it("does not retry the console's own 'Not signed in' while signed out, and retries a local 401 once signed in", () => {
    const local = new HttpError('Not signed in', 401, null);
    expect(retry(0, local)).toBe(false);
    // Signed in since the call failed (a sign-in raced the query): it is asked again.
    setSession('token', 7);
    expect(retry(0, local)).toBe(true);
    // A local check other than 401 is retried as before, signed out too.
    clearSession();
    expect(retry(0, new HttpError('Not found here', 404, null))).toBe(true);
    expect(retry(0, new Error('no answer'))).toBe(true);
  });
});
