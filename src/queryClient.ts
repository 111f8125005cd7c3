import { QueryClient } from '@tanstack/react-query';
import { getSession } from '../authProvider/session';

/**
 * Whether a failed query is tried again (react-query's `retry`). Answers are not retried when the
 * server said no (4xx): an expired session signs out at once and a missing record is reported at
 * once. Signed out, a 401 is final too: the console's own 'Not signed in' (the top bar of a public
 * page asking who is there) stays so until the user signs in, which asks afresh; retried, it drew
 * the top bar's user menu three more times. Network failures, 5xx and the console's other checks
 * are tried as react-query does by default (three times more).
 */
export function retry(count: number, error: unknown): boolean {
  const { status, body } = (error ?? {}) as { status?: unknown; body?: unknown };
  const refused = typeof status === 'number' && status >= 400 && status < 500 && body != null;
  const signedOut = status === 401 && getSession() === null;
  return !refused && !signedOut && count < 3;
}

export function createQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry } } });
}
