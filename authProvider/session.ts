/**
 * The browser session of SPEC §4.1: local storage key 'token_x' holds 'token.id'. The part before
 * the last '.' is the bearer token (which may itself contain dots), the part after it the user id.
 */
export const SESSION_KEY = 'token_x';

export interface Session {
  token: string;
  id: string;
}

const storage = (): Storage | undefined =>
  typeof localStorage === 'undefined' ? undefined : localStorage;

export function getSession(): Session | null {
  const value = storage()?.getItem(SESSION_KEY);
  const cut = value ? value.lastIndexOf('.') : -1;
  if (!value || cut <= 0 || cut === value.length - 1) return null;
  return { token: value.slice(0, cut), id: value.slice(cut + 1) };
}

export function setSession(token: string, id: string | number): void {
  storage()?.setItem(SESSION_KEY, `${token}.${id}`);
}

export function clearSession(): void {
  storage()?.removeItem(SESSION_KEY);
}
