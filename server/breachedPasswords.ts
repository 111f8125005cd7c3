/**
 * Breached passwords (ASVS 6.2.12): with BREACHED_PASSWORDS_URL set, a new password is looked up in a
 * Have I Been Pwned-compatible range service (k-anonymity): only the first 5 characters of its SHA-1
 * leave the server (`GET <url>/<prefix>`, with `Add-Padding: true`), and the answer, the suffixes of
 * every breached password under that prefix with their counts (`SUFFIX:COUNT` lines), is searched
 * here. Off by default (the server works offline). When the service does not answer within
 * `BREACH_TIMEOUT_MS` or answers an error, the password is taken (the common-password list and the
 * context words still apply) and the miss is logged: a breach service's outage must not stop every
 * sign-up and password reset.
 */
import crypto from 'node:crypto';

export const BREACH_TIMEOUT_MS = 2000;
export const BREACHED_MESSAGE = 'This password has appeared in a data breach; please choose another one';

/** true: breached; false: not in the service's list; null: the service could not say. */
export async function isBreached(url: string, password: string, timeoutMs = BREACH_TIMEOUT_MS): Promise<boolean | null> {
  const hash = crypto.createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
  const prefix = hash.slice(0, 5);
  const suffix = hash.slice(5);
  try {
    const answer = await fetch(`${url.replace(/\/+$/, '')}/${prefix}`, {
      headers: { 'Add-Padding': 'true', 'User-Agent': 'marketplace-console' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!answer.ok) return null;
    const text = await answer.text();
    return text.split(/\r?\n/).some((line) => {
      const [tail, count] = line.trim().split(':');
      return tail?.toUpperCase() === suffix && Number(count) > 0;
    });
  } catch {
    return null;
  }
}
