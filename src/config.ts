import { createContext, useContext } from 'react';

/**
 * Run-time configuration, read from /config.json when the console starts, so one build can point
 * at any back end.
 */
export interface RuntimeConfig {
  /** Base URL of the product API, e.g. '/api' or 'https://api.example.com'. */
  apiUrl: string;
  /** The product's terms page, linked from the registration form. */
  termsUrl: string;
  /**
   * Base URL of the country/state/city directory service (SPEC §7.10), e.g. '/directory' (the
   * reference server's offline stand-in) or the real service's address.
   */
  directoryUrl: string;
  /** The directory's API key, sent as the X-CSCAPI-KEY header; '' sends none. */
  directoryKey: string;
  /** Base URL of the IP geolocation service (SPEC §7.10), e.g. '/geo' (the reference server's offline stand-in). */
  geoUrl: string;
  /** The geolocation service's key, the path segment of GET {geoUrl}/{key}/detect. */
  geoKey: string;
  /**
   * How the console talks to the API: 'contract' (the product API's POST calls, the default) or
   * 'simple-rest' (react-admin's simple REST dialect on {apiUrl}/rest, with the contract's calls
   * for statuses, uploads and roles).
   */
  dataDialect: DataDialect;
}

export type DataDialect = 'contract' | 'simple-rest';

export const DEFAULT_CONFIG: RuntimeConfig = {
  apiUrl: '/api',
  termsUrl: '/terms.html',
  directoryUrl: '/directory',
  directoryKey: '',
  geoUrl: '/geo',
  geoKey: 'offline',
  dataDialect: 'contract',
};

function pickString(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

/** Reads the configuration file; missing or broken files fall back to the defaults. */
export async function loadConfig(
  url = `${import.meta.env.BASE_URL}config.json`,
  fetchImpl: typeof fetch = fetch,
): Promise<RuntimeConfig> {
  try {
    const response = await fetchImpl(url, { cache: 'no-store' });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const raw = (await response.json()) as Record<string, unknown> | null;
    return {
      apiUrl: pickString(raw?.apiUrl, DEFAULT_CONFIG.apiUrl),
      termsUrl: pickString(raw?.termsUrl, DEFAULT_CONFIG.termsUrl),
      directoryUrl: pickString(raw?.directoryUrl, DEFAULT_CONFIG.directoryUrl),
      directoryKey: pickString(raw?.directoryKey, DEFAULT_CONFIG.directoryKey),
      geoUrl: pickString(raw?.geoUrl, DEFAULT_CONFIG.geoUrl),
      geoKey: pickString(raw?.geoKey, DEFAULT_CONFIG.geoKey),
      dataDialect: raw?.dataDialect === 'simple-rest' ? 'simple-rest' : DEFAULT_CONFIG.dataDialect,
    };
  } catch (error) {
    console.warn('Run-time configuration not loaded, using the defaults.', error);
    return DEFAULT_CONFIG;
  }
}

export const ConfigContext = createContext<RuntimeConfig>(DEFAULT_CONFIG);

export const useConfig = (): RuntimeConfig => useContext(ConfigContext);
