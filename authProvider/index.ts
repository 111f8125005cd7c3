/**
 * react-admin AuthProvider over the product API (SPEC §4.1, §6, §7.2). The session is the 'token_x'
 * entry of local storage; the profile (abilities, granted_accesses) comes from the users call and
 * is cached per token.
 */
import { HttpError } from 'react-admin';
import type { AuthProvider, Identifier, UserIdentity } from 'react-admin';
import {
  AUTH_SOURCE, LOGIN_ACTION, PATHS, REGISTER_ABILITIES, parseAccesses, roleOf,
  type AuthDetail, type Info, type Role,
} from '../contract';
import { createApi, defaultClient, isObject, type HttpClient } from '../dataProvider/http';
import { usersCall } from './usersCall';
import { canUse } from './access';

/** Where an admin who must set up a second factor is led after signing in (resources/users). */
export const SECOND_FACTOR_SETUP_PATH = '/second-factor';
import { clearSession, getSession, setSession } from './session';

export { canAccessToken, canUse, menuFor, type AccessProfile } from './access';
export { SESSION_KEY, clearSession, getSession, setSession, type Session } from './session';

export interface Permissions {
  role: Role;
  granted: string[];
}

/** The user profile of the users call (SPEC §3.2), as far as the console relies on it. */
export interface Profile {
  id?: Identifier;
  name?: string;
  abilities?: unknown;
  granted_accesses?: unknown;
  [key: string]: unknown;
}

export interface LoginParams {
  credential?: string;
  /** react-admin's default login form names the credential 'username'. */
  username?: string;
  /** Absent when a passkey signs in instead of the password. */
  password?: string;
  /** The second step of an account with a second factor (issue 26): a code, or a passkey's assertion. */
  otp?: string;
  passkey?: unknown;
}

export interface RegisterParams {
  name: string;
  email: string;
  phone: string;
  password: string;
}

export interface ResetParams {
  reset_token: string;
  password: string;
}

export interface MarketplaceAuthProvider extends AuthProvider {
  /** Resolves to {redirectTo} when the server requires this user to set up a second factor first. */
  login(params: LoginParams): Promise<{ redirectTo: string } | void>;
  logout(): Promise<string>;
  getIdentity(): Promise<UserIdentity>;
  getPermissions(): Promise<Permissions>;
  canAccess(params: { resource: string; action?: string; record?: unknown }): Promise<boolean>;
  /**
   * Create an account (abilities '[1,2]') and sign in with it; resolves to {redirectTo} when the
   * server requires this seller to set up a second factor first.
   */
  register(params: RegisterParams): Promise<{ redirectTo?: string }>;
  /** Ask for a password-reset mail; resolves to the server's message. */
  requestReset(email: string): Promise<string>;
  /** Set a new password with a reset token; resolves to the server's message. */
  resetPassword(params: ResetParams): Promise<string>;
  /**
   * Reads the profile again (an admin may have changed the user's role, accesses or name); resolves
   * to whether anything access or display depends on changed. Rejects as the users call does (401
   * when the session has ended).
   */
  refreshProfile?(): Promise<boolean>;
}

/** What the sidebar, the user menu and canAccess read of a profile. */
const watched = (p: Profile) => JSON.stringify([p.name, p.email, p.abilities, p.granted_accesses, p.is_active]);

export function createAuthProvider(apiUrl: string, httpClient: HttpClient = defaultClient): MarketplaceAuthProvider {
  const api = createApi(apiUrl, getSession, httpClient);
  let cache: { token: string; profile: Promise<Profile> } | null = null;

  /** SPEC §4.1: store 'token.id' from a successful login or register. */
  function startSession({ status, query, detail }: Info<AuthDetail>): void {
    if (status !== true || !detail?.token || detail.id == null) throw new Error(query || 'Sign in failed');
    setSession(detail.token, detail.id);
    cache = null;
  }

  const fetchProfile = (id: string) =>
    usersCall<Profile>(api, { id }).then(({ detail }) => {
      if (!isObject(detail)) throw new HttpError('Profile not found', 404, null);
      return detail as Profile;
    });

  function profile(): Promise<Profile> {
    const session = getSession();
    if (!session) return Promise.reject(new HttpError('Not signed in', 401, null));
    if (cache?.token !== session.token) {
      const promise = fetchProfile(session.id);
      promise.catch(() => {
        if (cache?.profile === promise) cache = null;
      });
      cache = { token: session.token, profile: promise };
    }
    return cache.profile;
  }

  return {
    async login({ credential, username, password, otp, passkey }) {
      // A passkey alone signs in instead of the password (issue 26).
      const who = password ? { credential: credential ?? username, password } : {};
      const body = { ...who, source: AUTH_SOURCE, actionType: LOGIN_ACTION, ...(otp ? { otp } : {}), ...(passkey ? { passkey } : {}) };
      const answer = await api.post<AuthDetail>(PATHS.login, body);
      startSession(answer);
      if (answer.detail?.enrol_second_factor) return { redirectTo: SECOND_FACTOR_SETUP_PATH };
      // The first screen needs the profile (menu, identity, permissions): ask for it at once rather
      // than when react-admin first reads it, after the next page has started drawing.
      profile().catch(() => undefined);
    },
    async register({ name, email, phone, password }) {
      const abilities = JSON.stringify(REGISTER_ABILITIES);
      const answer = await api.post<AuthDetail>(PATHS.register, { name, email, phone, password, abilities, source: AUTH_SOURCE });
      startSession(answer);
      // SELLER_SECOND_FACTOR=required: a new seller sets up a second factor first.
      return answer.detail?.enrol_second_factor ? { redirectTo: SECOND_FACTOR_SETUP_PATH } : {};
    },
    requestReset: async (email) => (await api.post(PATHS.reset, { email })).query,
    resetPassword: async ({ reset_token, password }) =>
      (await api.post(PATHS.updatePassword, { reset_token, password })).query,
    async logout() {
      if (getSession()) await api.post(PATHS.logout).catch(() => undefined);
      clearSession();
      cache = null;
      return '/login';
    },
    async checkAuth() {
      if (!getSession()) throw new Error('ra.auth.auth_check_error');
    },
    async checkError(error: unknown) {
      // Signed out already (a public page asking who is there): nothing to end, stay on the page.
      // The session is ended by react-admin's logout right after (checkAuth must still pass first
      // for the 'Your session has ended' message to be shown).
      if (isObject(error) && error.status === 401 && getSession()) throw new Error('session.ended');
    },
    async getIdentity() {
      const user = await profile();
      return { id: getSession()?.id ?? '', fullName: user.name, ...user };
    },
    async getPermissions() {
      const user = await profile();
      return { role: roleOf(user.abilities), granted: parseAccesses(user.granted_accesses) };
    },
    async refreshProfile() {
      const session = getSession();
      if (!session) return false;
      const before = cache?.token === session.token ? await cache.profile.catch(() => null) : null;
      // Readers keep the profile in hand while the fresh one loads (the first screen after signing
      // in does not wait for this second read).
      const after = await fetchProfile(session.id);
      if (getSession()?.token === session.token) cache = { token: session.token, profile: Promise.resolve(after) };
      return before !== null && watched(before) !== watched(after);
    },
    async canAccess({ resource, action }) {
      if (!getSession()) return false;
      return canUse(await profile(), resource, action);
    },
  };
}

export default createAuthProvider;
