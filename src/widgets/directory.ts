/**
 * Client of the country/state/city directory service (SPEC §7.10): GET countries,
 * countries/{country_iso2}/states, countries/{country_code}/states/{state_iso2}/cities, with the
 * API key in the X-CSCAPI-KEY header when one is configured. The base URL and key come from the
 * run-time configuration (DESIGN D10); the reference server answers at '/directory'.
 */
import { useMemo } from 'react';
import { useConfig, type RuntimeConfig } from '../config';

/** A country or a state as the directory lists it. Coordinates are kept as the service sends them. */
export interface DirectoryPlace {
  name: string;
  iso2: string;
  latitude: string | null;
  longitude: string | null;
}
/** Cities have no code. */
export type DirectoryCity = Omit<DirectoryPlace, 'iso2'>;

export interface Directory {
  countries(): Promise<DirectoryPlace[]>;
  states(countryIso2: string): Promise<DirectoryPlace[]>;
  cities(countryIso2: string, stateIso2: string): Promise<DirectoryCity[]>;
}

/** What a failed fetch (no answer at all) reads as, worded as the product's alert shows it (SPEC §8). */
export const NETWORK_ERROR = 'Network Error';

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const coordinate = (value: unknown) => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);

function readPlaces(raw: unknown): DirectoryPlace[] {
  if (!Array.isArray(raw)) throw new Error('The directory answered in an unexpected shape');
  const seen = new Set<string>();
  return raw
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && text(item.name) !== '')
    .map((item) => ({ name: text(item.name), iso2: text(item.iso2), latitude: coordinate(item.latitude), longitude: coordinate(item.longitude) }))
    // A list names each place once (a few states hold two towns of one name).
    .filter((place) => {
      const key = `${place.iso2}\n${place.name}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** Answers are cached for the page's life, per URL and key; failures are not kept, so a retry asks again. */
const cache = new Map<string, Promise<unknown>>();

export function clearDirectoryCache() {
  cache.clear();
}

export function createDirectory(
  config: Pick<RuntimeConfig, 'directoryUrl' | 'directoryKey'>,
  fetchImpl: typeof fetch = (...args) => fetch(...args),
): Directory {
  const base = config.directoryUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (config.directoryKey) headers['X-CSCAPI-KEY'] = config.directoryKey;

  const get = (path: string): Promise<unknown> => {
    const url = base + path;
    const cacheKey = `${config.directoryKey}\n${url}`;
    const cached = cache.get(cacheKey);
    if (cached) return cached;
    const request = (async () => {
      let response: Response;
      try {
        response = await fetchImpl(url, { headers });
      } catch {
        throw new Error(NETWORK_ERROR);
      }
      let body: unknown = null;
      try {
        body = await response.json();
      } catch {
        if (response.ok) throw new Error('The directory answered in an unexpected shape');
      }
      if (!response.ok) {
        const message = typeof body === 'object' && body !== null ? text((body as Record<string, unknown>).error || (body as Record<string, unknown>).message) : '';
        throw new Error(message || `The directory answered HTTP ${response.status}`);
      }
      return body;
    })();
    cache.set(cacheKey, request);
    request.catch(() => cache.delete(cacheKey));
    return request;
  };
  const code = (value: string) => encodeURIComponent(value);

  return {
    countries: async () => readPlaces(await get('/countries')),
    states: async (country) => readPlaces(await get(`/countries/${code(country)}/states`)),
    cities: async (country, state) =>
      readPlaces(await get(`/countries/${code(country)}/states/${code(state)}/cities`)).map(({ name, latitude, longitude }) => ({
        name,
        latitude,
        longitude,
      })),
  };
}

/** The directory of the run-time configuration. */
export function useDirectory(): Directory {
  const { directoryUrl, directoryKey } = useConfig();
  return useMemo(() => createDirectory({ directoryUrl, directoryKey }), [directoryUrl, directoryKey]);
}
