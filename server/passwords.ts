/**
 * Common passwords (ASVS 6.2.4): a new password is refused when it is one of the ~49,000 most
 * common ones, compared without case. The list ships with `@zxcvbn-ts/language-common`, a
 * maintained package, and is read once, on the first password chosen.
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { MIN_PASSWORD_LENGTH } from '../contract';
import { badRequest } from './errors';

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
