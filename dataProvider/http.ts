/**
 * The one way the console talks to the product API (SPEC §7.1): POST, JSON in and out, the bearer
 * token on every call when a session exists (DESIGN D6), and the answer envelope checked once:
 * HTTP errors and `status: false` become react-admin HttpErrors carrying the server's `query`.
 * It names no call of its own: the session it is given says whose token goes out.
 */
import { HttpError } from 'react-admin';
import type { Info, SecondFactorDetail } from '../contract';
import { rememberServerWords } from '../i18n/server';

export interface HttpResponse {
  status: number;
  statusText?: string;
  json: unknown;
}

/** Injected so tests can record calls; fetch-based by default. */
export type HttpClient = (url: string, init: RequestInit) => Promise<HttpResponse>;

/** An HttpClient over a fetch function (the browser's by default, looked up at each call). */
export const fetchClient =
  (fetchImpl: typeof fetch = (input, init) => fetch(input, init)): HttpClient =>
  async (url, init) => {
    const response = await fetchImpl(url, init);
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.status, statusText: response.statusText, json };
  };

export const defaultClient: HttpClient = fetchClient();

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The signed-in user as the session keeps it (SPEC §4.1 'token.id'), or null. */
export type SessionReader = () => { token: string; id: string } | null;

/** What a call may add: headers of its own (the users call's `permission`), react-admin's abort signal. */
export interface CallOptions {
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

export interface Api {
  /** POST a JSON body to a contract path and return the checked envelope. */
  post<D = unknown, H = unknown>(path: string, body?: object, signal?: AbortSignal): Promise<Info<D, H>>;
  /** POST a multipart form (uploads, SPEC §7.5; the users call, SPEC §7.2) with the caller's headers and the bearer token. */
  form<D = unknown, H = unknown>(path: string, form: FormData, options?: CallOptions): Promise<Info<D, H>>;
}

/** The Authorization header of the session, when there is one. */
export const bearerOf = (session: SessionReader): Record<string, string> => {
  const current = session();
  return current ? { Authorization: `Bearer ${current.token}` } : {};
};


/**
 * Step-up (issue 26): a call refused for want of a fresh second factor (`detail.step_up`) is sent
 * again once the handler resolves (the console's dialog, after the user confirmed); a handler that
 * rejects (the user cancelled) leaves the refusal as it was.
 */
type StepUpHandler = (detail: SecondFactorDetail) => Promise<void>;
let stepUpHandler: StepUpHandler | null = null;
export function onStepUp(handler: StepUpHandler | null): void {
  stepUpHandler = handler;
}
const needsStepUp = (json: unknown): json is { detail: SecondFactorDetail } =>
  isObject(json) && isObject(json.detail) && json.detail.step_up === true && Array.isArray(json.detail.second_factor);

/** The message keys an answer names for its `query` (the `i18n` extension), so the console words that text in its language. */
const rememberWords = (json: unknown) => {
  if (isObject(json)) rememberServerWords(json.query, json.i18n);
};

export function createApi(apiUrl: string, session: SessionReader, httpClient: HttpClient = defaultClient): Api {
  const bearer = () => bearerOf(session);
  async function send<D, H>(path: string, init: RequestInit, again = true): Promise<Info<D, H>> {
    let response: HttpResponse;
    try {
      response = await httpClient(`${apiUrl}${path}`, { method: 'POST', ...init });
    } catch (error) {
      if (error instanceof HttpError) throw error;
      // A call react-admin abandoned (the screen was left): let its AbortError through untouched.
      if (error instanceof Error && error.name === 'AbortError') throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new HttpError(`Network Error: ${reason}`, 0, null);
    }
    const { status, statusText, json } = response;
    rememberWords(json);
    if (again && stepUpHandler && needsStepUp(json)) {
      const confirmed = await stepUpHandler(json.detail).then(() => true, () => false);
      if (confirmed) return send(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...bearer() } }, false);
    }
    const ok = status >= 200 && status < 300;
    if (ok && isObject(json) && json.status !== false) return json as unknown as Info<D, H>;
    const query = isObject(json) && typeof json.query === 'string' ? json.query : '';
    const fallback = ok ? 'The server did not accept the request' : statusText || `HTTP error ${status}`;
    throw new HttpError(query || fallback, ok ? 400 : status, json);
  }

  return {
    post: (path, body = {}, signal) =>
      send(path, {
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...bearer() },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      }),
    // No Content-Type: fetch sets the multipart boundary itself.
    form: (path, form, { headers = {}, signal } = {}) =>
      send(path, {
        headers: { ...headers, ...bearer() },
        body: form,
        ...(signal ? { signal } : {}),
      }),
  };
}
