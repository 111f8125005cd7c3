/**
 * Common passwords (ASVS 6.2.4): a new password is refused when it is one of the ~49,000 most
 * common ones, compared without case. The list ships with `@zxcvbn-ts/language-common`, a
 * maintained package, and is read once, on the first password chosen.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

let common: Set<string> | undefined;

export function isCommonPassword(value: string): boolean {
  common ??= new Set(dictionary['passwords-common'] as string[]);
  return common.has(value.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE = 'This password is too common; please choose another one';
