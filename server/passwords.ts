/**
 * Common passwords (ASVS 6.2.4): a new password is refused when it is one of the ~49,000 most
 * common ones, compared without case. The list ships with `@zxcvbn-ts/language-common`, a
 * maintained package, and is read once, on the first password chosen.
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { MIN_PASSWORD_LENGTH } from '../contract';
import { badRequest } from './errors';
import { BREACHED_MESSAGE, isBreached } from './breachedPasswords';

let common: Set<string> | undefined;

export function isCommonPassword(value: string): boolean {
  common ??= new Set(dictionary['passwords-common'] as string[]);
  return common.has(value.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE = 'This password is too common; please choose another one';

/** The message of a password below the minimum (SPEC §8). */
export const PASSWORD_MESSAGE = `Your password must be minimum ${MIN_PASSWORD_LENGTH} digits`;
/** The longest password taken (scrypt reads it whole). */
export const MAX_PASSWORD_LENGTH = 200;

/** A new password from a body: present, at least the minimum and at most the maximum long, not a common one. */
export function readPassword(body: Record<string, unknown>, name = 'password'): string {
  const value = body[name];
  if (typeof value !== 'string' || value.length === 0) throw badRequest('password is required');
  if (value.length < MIN_PASSWORD_LENGTH) throw badRequest(PASSWORD_MESSAGE);
  if (value.length > MAX_PASSWORD_LENGTH) throw badRequest(`password must be at most ${MAX_PASSWORD_LENGTH} characters`);
  if (isCommonPassword(value)) throw badRequest(COMMON_PASSWORD_MESSAGE);
  return value;
}

/**
 * Context-specific words (ASVS 6.1.2, 6.2.11): the marketplace's own words, always refused inside a
 * new password, whatever the case. The person's own words come from `contextWordIn`'s `who`.
 */
export const SITE_WORDS = ['marketplace', 'admin', 'seller', 'buyer'] as const;
/** Shorter words of a person (a name such as 'Al') would refuse too much; 4 letters and more count. */
export const MIN_CONTEXT_WORD = 4;
/** A password holding this many digits of the user's phone number in a row is refused. */
export const PHONE_DIGITS = 6;

/** Who the password is for: their name, email and phone (each may be missing). */
export interface PasswordContext {
  name?: unknown;
  email?: unknown;
  phone?: unknown;
}

export const contextWordMessage = (word: string) => `This password contains "${word}", which is too easy to guess; please choose another one`;

/**
 * The first context-specific word the password contains, or null: a word of the site, the email's
 * local part (whole, and each of its parts), a word of the name, or `PHONE_DIGITS` digits of the phone
 * number in a row. Compared without case.
 */
export function contextWordIn(password: string, who: PasswordContext): string | null {
  const text = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : '');
  const local = text(who.email).split('@')[0];
  const words = [
    ...SITE_WORDS,
    local,
    ...local.split(/[^\p{L}\p{N}]+/u),
    ...text(who.name).split(/[^\p{L}\p{N}]+/u),
  ].filter((word) => [...word].length >= MIN_CONTEXT_WORD);
  const lower = password.toLowerCase();
  const word = words.find((w) => lower.includes(w));
  if (word) return word;
  const digits = text(who.phone).replace(/\D/g, '');
  for (let i = 0; i + PHONE_DIGITS <= digits.length; i++) {
    const run = digits.slice(i, i + PHONE_DIGITS);
    if (password.includes(run)) return run;
  }
  return null;
}

/** The checks of a new password beyond its shape: the breach service, when the operator set one. */
export interface PasswordChecks {
  breachedPasswordsUrl?: string;
  /** Told when the breach service could not say (the password is then taken). */
  warn?: (message: string) => void;
}

/**
 * A new password from a body for this person, on every path that sets one (registering, a reset, a
 * signed-in change, create-admin): `readPassword`'s rules, then no context-specific word (ASVS 6.2.11),
 * then not breached (ASVS 6.2.12, with BREACHED_PASSWORDS_URL).
 */
export async function readNewPassword(body: Record<string, unknown>, who: PasswordContext, checks: PasswordChecks, name = 'password'): Promise<string> {
  const value = readPassword(body, name);
  await checkNewPassword(value, who, checks);
  return value;
}

/** `readNewPassword`'s checks of a password already read (a reset reads it before it knows whose it is). */
export async function checkNewPassword(value: string, who: PasswordContext, checks: PasswordChecks): Promise<void> {
  const word = contextWordIn(value, who);
  if (word) throw badRequest(contextWordMessage(word));
  if (checks.breachedPasswordsUrl) {
    const breached = await isBreached(checks.breachedPasswordsUrl, value);
    if (breached) throw badRequest(BREACHED_MESSAGE);
    if (breached === null) checks.warn?.('The breached-password service did not answer; a new password was taken without that check');
  }
}
