/** A new password's rules (SPEC §8, §9.3), both sides of each limit, typed from the spec, not from the code. */
import { describe, expect, it } from 'vitest';
import {
  COMMON_PASSWORD_MESSAGE, MIN_CONTEXT_WORD, PHONE_DIGITS, SITE_WORDS, contextWordIn, contextWordMessage, readPassword,
} from '../../server/passwords';
import { BREACHED_MESSAGE } from '../../server/breachedPasswords';
import { matchServerMessage } from '../../i18n/server';
import { ApiError } from '../../server/errors';
import { ERROR_WORDS, LIMITS } from '../spec';

/** The refusal a body earns, as the envelope's status and words, or null when it is taken. */
function refusal(body: Record<string, unknown>, name?: string) {
  try {
    readPassword(body, name);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.statusCode, query: error.message };
  }
}

/** An uncommon password of `length` characters. */
const of = (length: number) => 'Qz7#kLm2Wx9$vBn4Rt6&'.repeat(11).slice(0, length);

describe('a new password', () => {
  it(`is refused below ${LIMITS.minPassword} characters with the spec's words, taken at ${LIMITS.minPassword}`, () => {
    expect(refusal({ password: of(LIMITS.minPassword - 1) })).toEqual({ status: 400, query: ERROR_WORDS.passwordMin });
    expect(refusal({ password: of(LIMITS.minPassword) })).toBeNull();
    expect(readPassword({ password: of(LIMITS.minPassword) })).toBe(of(LIMITS.minPassword));
  });

  it('is taken at 200 characters and refused at 201', () => {
    expect(refusal({ password: of(200) })).toBeNull();
    expect(refusal({ password: of(201) })).toEqual({ status: 400, query: 'password must be at most 200 characters' });
  });

  it('is required, as text, under the name asked for', () => {
    for (const password of [undefined, '', 12345678, ['abcdefgh']]) {
      expect(refusal({ password })).toEqual({ status: 400, query: 'password is required' });
    }
    expect(refusal({ new_password: of(8) }, 'new_password')).toBeNull();
    expect(refusal({ password: of(8) }, 'new_password')).toEqual({ status: 400, query: 'password is required' });
  });

  it('is refused when it is a common one, whatever its case', () => {
    const common = { status: 400, query: 'This password is too common; please choose another one' };
    expect(refusal({ password: 'password1' })).toEqual(common);
    expect(refusal({ password: 'PassWord1' })).toEqual(common);
  });
});

describe('context-specific words (ASVS 6.2.11)', () => {
  const who = { name: 'Anna-Lee Bo', email: 'first.last@example.com', phone: '+44 (0)7700 900123' };
  it('finds the site\'s words, the email\'s local part and its parts, and the name\'s words, without case', () => {
    for (const word of SITE_WORDS) expect(contextWordIn(`x${word.toUpperCase()}9`, {})).toBe(word);
    expect(contextWordIn('xx-FIRST.LAST-1', who)).toBe('first.last');
    expect(contextWordIn('xx-Last-1', who)).toBe('last');
    expect(contextWordIn('annaZ-99', who)).toBe('anna');
  });
  it(`counts words of ${MIN_CONTEXT_WORD} letters and more, and ${PHONE_DIGITS} phone digits in a row, not fewer`, () => {
    expect(contextWordIn('xx-Lee-Bo-1', who)).toBeNull();
    expect(contextWordIn('q-900123-q', who)).toBe('900123');
    expect(contextWordIn('q-90012-q', who)).toBeNull();
    expect(contextWordIn('q-70090-0123', who)).toBeNull();
  });
  it('answers with words the console knows in both languages', () => {
    expect(matchServerMessage(contextWordMessage('anna'))).toEqual({ key: 'server.password_context_word', values: { word: 'anna' } });
    expect(matchServerMessage(BREACHED_MESSAGE)?.key).toBe('server.password_breached');
    expect(matchServerMessage(COMMON_PASSWORD_MESSAGE)?.key).toBe('server.password_common');
  });
});
