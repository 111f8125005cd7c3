/**
 * Offline stand-ins for two external services (DESIGN D10), from the country/state/city data an
 * npm package ships:
 * - the country/state/city directory (SPEC §7.10), mounted outside /api at '/directory' so it stays
 *   available in strict contract mode: GET countries, countries/{iso2}/states,
 *   countries/{iso2}/states/{iso2}/cities, answered as plain JSON like the real service;
 * - the contract's POST /find-place (SPEC §7.9), inside /api, answered with the envelope and
 *   Google-style `candidates`.
 * The data is large (about 9 MB of JSON), so it is loaded on the first request, not at start-up.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ICity, ICountry, IState } from 'country-state-city';
import { bodyOf, type Context } from '../context';
import { badRequest } from '../errors';
import { requireCaller } from '../guard';
import { ok } from './common';

/** Directory answers change only with the data package: let browsers and proxies keep them a day. */
const CACHE_CONTROL = 'public, max-age=86400';
/** The header the real directory service reads its API key from. */
export const DIRECTORY_KEY_HEADER = 'x-cscapi-key';
/** Longest place text find-place accepts. */
export const MAX_PLACE_LENGTH = 200;
/** find-place answers at most this many candidates. */
export const MAX_CANDIDATES = 5;

const COUNTRY_CODE = /^[A-Za-z0-9]{2,3}$/;
/** State codes in the data are 1 to 5 characters, a few with a hyphen ('CDMX', 'SH-AC'). */
const STATE_CODE = /^[A-Za-z0-9][A-Za-z0-9-]{0,5}$/;

export interface DirectoryEntry {
  name: string;
  iso2: string;
  latitude: string | null;
  longitude: string | null;
}
export type DirectoryCity = Omit<DirectoryEntry, 'iso2'>;

export interface PlaceCandidate {
  name: string;
  /** 'city, state, country', as far as known. */
  formatted_address: string;
  geometry: { location: { lat: number; lng: number } };
}

type Level = 'city' | 'state' | 'country';
interface Place {
  level: Level;
  name: string;
  country: string;
  /** The state's iso2, for cities and states. */
  state: string;
  lat: number;
  lng: number;
}

interface Data {
  countries: DirectoryEntry[];
  country(iso2: string): ICountry | undefined;
  states(countryIso2: string): DirectoryEntry[];
  state(countryIso2: string, stateIso2: string): IState | undefined;
  cities(countryIso2: string, stateIso2: string): DirectoryCity[];
  allCities(): ICity[];
  allStates(): IState[];
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
const coordinate = (value: string | null | undefined) => (value === undefined || value === null || value === '' ? null : value);

let dataPromise: Promise<Data> | null = null;

/** The package's data, imported on first use and kept for the life of the process. */
function loadData(): Promise<Data> {
  dataPromise ??= import('country-state-city').then(({ Country, State, City }) => {
    const countries = Country.getAllCountries()
      .map((c) => ({ name: c.name, iso2: c.isoCode, latitude: coordinate(c.latitude), longitude: coordinate(c.longitude) }))
      .sort(byName);
    return {
      countries,
      country: (iso2) => Country.getCountryByCode(iso2),
      states: (iso2) =>
        State.getStatesOfCountry(iso2)
          .map((s) => ({ name: s.name, iso2: s.isoCode, latitude: coordinate(s.latitude), longitude: coordinate(s.longitude) }))
          .sort(byName),
      state: (country, state) => State.getStateByCodeAndCountry(state, country),
      cities: (country, state) =>
        City.getCitiesOfState(country, state)
          .map((c) => ({ name: c.name, latitude: coordinate(c.latitude), longitude: coordinate(c.longitude) }))
          .sort(byName),
      allCities: () => City.getAllCities(),
      allStates: () => State.getAllStates(),
    };
  });
  dataPromise.catch(() => {
    dataPromise = null;
  });
  return dataPromise;
}

/** Plain JSON errors, as the real directory service answers them (not the product's envelope). */
class DirectoryError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

function sameKey(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readCode(value: string, pattern: RegExp, what: string, example: string): string {
  if (!pattern.test(value)) throw new DirectoryError(400, `${what} must be a short code of letters and digits, such as '${example}'`);
  return value.toUpperCase();
}

/**
 * The directory service stand-in. Register with a prefix: `app.register(directoryRoutes, { prefix: '/directory', key })`.
 * When `key` is set, every request must carry it in the X-CSCAPI-KEY header.
 */
export async function directoryRoutes(app: FastifyInstance, opts: { key?: string }) {
  const key = opts.key || undefined;

  app.setErrorHandler((error: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DirectoryError) return reply.code(error.statusCode).send({ error: error.message });
    if (error.statusCode && error.statusCode < 500) return reply.code(error.statusCode).send({ error: error.message });
    request.log.error(error);
    return reply.code(500).send({ error: 'The directory could not answer; please try again' });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: `There is no ${request.method} ${request.url.split('?')[0]} in the directory` }),
  );

  app.addHook('onRequest', async (request, reply) => {
    if (key && !sameKey(request.headers[DIRECTORY_KEY_HEADER], key)) {
      return reply.code(401).send({ error: 'A valid API key is required in the X-CSCAPI-KEY header' });
    }
  });

  app.get('/countries', async (_request, reply) => {
    const data = await loadData();
    return reply.header('Cache-Control', CACHE_CONTROL).send(data.countries);
  });

  app.get<{ Params: { country_iso2: string } }>('/countries/:country_iso2/states', async (request, reply) => {
    const country = readCode(request.params.country_iso2, COUNTRY_CODE, 'The country code', 'NG');
    const data = await loadData();
    if (!data.country(country)) throw new DirectoryError(404, `There is no country with the code '${country}'`);
    return reply.header('Cache-Control', CACHE_CONTROL).send(data.states(country));
  });

  app.get<{ Params: { country_code: string; state_iso2: string } }>(
    '/countries/:country_code/states/:state_iso2/cities',
    async (request, reply) => {
      const country = readCode(request.params.country_code, COUNTRY_CODE, 'The country code', 'NG');
      const state = readCode(request.params.state_iso2, STATE_CODE, 'The state code', 'LA');
      const data = await loadData();
      if (!data.country(country)) throw new DirectoryError(404, `There is no country with the code '${country}'`);
      if (!data.state(country, state)) throw new DirectoryError(404, `There is no state '${state}' in the country '${country}'`);
      return reply.header('Cache-Control', CACHE_CONTROL).send(data.cities(country, state));
    },
  );
}

// ---------------------------------------------------------------------------------------------
// find-place

/** Lower case, accents removed, anything but letters and digits turned into single spaces. */
export const normalizePlace = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Words often written after a state's name, or left out of it ('Lagos State', 'Ontario Province'). */
const STATE_SUFFIX = / (state|province|region|county|district|governorate|department|division|territory)$/;

interface PlaceIndex {
  byName: Map<string, Place[]>;
  countryName: Map<string, string>;
  stateName: Map<string, string>;
  longestName: number;
}

let indexPromise: Promise<PlaceIndex> | null = null;

function loadIndex(): Promise<PlaceIndex> {
  indexPromise ??= loadData().then((data) => {
    const byName = new Map<string, Place[]>();
    let longestName = 1;
    const add = (name: string, place: Place) => {
      const key = normalizePlace(name);
      if (!key) return;
      longestName = Math.max(longestName, key.split(' ').length);
      const list = byName.get(key);
      if (!list) byName.set(key, [place]);
      else if (!list.includes(place)) list.push(place);
    };
    const countryName = new Map<string, string>();
    const stateName = new Map<string, string>();
    const number = (value: string | null | undefined) => (value === null || value === undefined || value === '' ? NaN : Number(value));
    for (const c of data.countries) {
      countryName.set(c.iso2, c.name);
      const lat = number(c.latitude);
      const lng = number(c.longitude);
      if (Number.isFinite(lat) && Number.isFinite(lng)) add(c.name, { level: 'country', name: c.name, country: c.iso2, state: '', lat, lng });
    }
    for (const s of data.allStates()) {
      stateName.set(`${s.countryCode}-${s.isoCode}`, s.name);
      const lat = number(s.latitude);
      const lng = number(s.longitude);
      if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
      const place: Place = { level: 'state', name: s.name, country: s.countryCode, state: s.isoCode, lat, lng };
      add(s.name, place);
      const short = normalizePlace(s.name).replace(STATE_SUFFIX, '');
      if (short !== normalizePlace(s.name)) add(short, place);
    }
    for (const c of data.allCities()) {
      const lat = number(c.latitude);
      const lng = number(c.longitude);
      if (Number.isFinite(lat) && Number.isFinite(lng)) add(c.name, { level: 'city', name: c.name, country: c.countryCode, state: c.stateCode, lat, lng });
    }
    return { byName, countryName, stateName, longestName: Math.min(longestName, 10) };
  });
  indexPromise.catch(() => {
    indexPromise = null;
  });
  return indexPromise;
}

const LEVEL_RANK: Record<Level, number> = { city: 0, state: 1, country: 2 };

/**
 * The places a text names, best first. Every run of words is looked up among city, state and
 * country names; a place scores the words it explains itself plus those its own state and country
 * explain ('Ikeja Lagos Nigeria': Ikeja explains all three words, the city of Lagos two). Ties go to
 * the finer place: city, then state, then country.
 */
export async function findPlaces(text: string, limit = MAX_CANDIDATES): Promise<PlaceCandidate[]> {
  const index = await loadIndex();
  const words = normalizePlace(text).split(' ').filter(Boolean);
  const matched = new Map<Place, Set<number>>();
  for (let start = 0; start < words.length; start++) {
    for (let length = 1; length <= index.longestName && start + length <= words.length; length++) {
      const places = index.byName.get(words.slice(start, start + length).join(' '));
      if (!places) continue;
      for (const place of places) {
        const covered = matched.get(place) ?? new Set<number>();
        for (let i = start; i < start + length; i++) covered.add(i);
        matched.set(place, covered);
      }
    }
  }
  const wordsOf = new Map<string, Set<number>>();
  for (const [place, covered] of matched) {
    if (place.level === 'city') continue;
    const key = place.level === 'country' ? place.country : `${place.country}-${place.state}`;
    wordsOf.set(key, new Set([...(wordsOf.get(key) ?? []), ...covered]));
  }
  const scored = [...matched].map(([place, covered]) => {
    const all = new Set(covered);
    if (place.level === 'city') for (const i of wordsOf.get(`${place.country}-${place.state}`) ?? []) all.add(i);
    if (place.level !== 'country') for (const i of wordsOf.get(place.country) ?? []) all.add(i);
    return { place, score: all.size, first: Math.min(...covered) };
  });
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      LEVEL_RANK[a.place.level] - LEVEL_RANK[b.place.level] ||
      a.first - b.first ||
      a.place.name.localeCompare(b.place.name),
  );
  return scored.slice(0, limit).map(({ place }) => {
    const parts = [place.name];
    if (place.level === 'city') parts.push(index.stateName.get(`${place.country}-${place.state}`) ?? '');
    if (place.level !== 'country') parts.push(index.countryName.get(place.country) ?? '');
    return {
      name: place.name,
      formatted_address: parts.filter(Boolean).join(', '),
      geometry: { location: { lat: place.lat, lng: place.lng } },
    };
  });
}

/** POST /find-place {location} (SPEC §7.9): for any signed-in user. */
export async function findPlaceRoutes(app: FastifyInstance, _ctx: Context) {
  app.post('/find-place', async (request) => {
    requireCaller(request.caller);
    const { location } = bodyOf(request);
    if (typeof location !== 'string') throw badRequest('location must be text: place names joined by spaces');
    if (location.length > MAX_PLACE_LENGTH) throw badRequest(`location must be at most ${MAX_PLACE_LENGTH} characters`);
    if (!normalizePlace(location)) throw badRequest('location must name a place, such as a city, state or country');
    return { ...ok(), candidates: await findPlaces(location) };
  });
}

// ---------------------------------------------------------------------------------------------
// Coordinates of an address (the delivery distance's straight line)

/** A place named as an address names it: the country (name or iso2), and its state and city when known. */
export interface NamedPlace {
  country: string;
  state?: string | null;
  city?: string | null;
}

const sameName = (a: string, b: string) => {
  const x = normalizePlace(a);
  const y = normalizePlace(b);
  return x === y || x.replace(STATE_SUFFIX, '') === y.replace(STATE_SUFFIX, '');
};

/**
 * The coordinates of the finest level of a place the directory knows: its city (in its state, or
 * anywhere in its country), else its state, else its country; null when the country is unknown.
 */
export async function locate(place: NamedPlace): Promise<{ lat: number; lng: number } | null> {
  const data = await loadData();
  const wanted = place.country.trim();
  const country = data.countries.find((c) => c.iso2.toLowerCase() === wanted.toLowerCase() || sameName(c.name, wanted));
  if (!country) return null;
  const at = (e: { latitude: string | null; longitude: string | null } | undefined) => {
    const lat = Number(e?.latitude ?? NaN);
    const lng = Number(e?.longitude ?? NaN);
    return e && e.latitude !== null && e.longitude !== null && Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null;
  };
  const state = place.state?.trim() ? data.states(country.iso2).find((s) => s.iso2.toLowerCase() === place.state!.trim().toLowerCase() || sameName(s.name, place.state!)) : undefined;
  const cityName = place.city?.trim();
  if (cityName) {
    const city = state
      ? data.cities(country.iso2, state.iso2).find((c) => sameName(c.name, cityName))
      : data.allCities().find((c) => c.countryCode === country.iso2 && sameName(c.name, cityName));
    const found = at(city ? { latitude: city.latitude ?? null, longitude: city.longitude ?? null } : undefined);
    if (found) return found;
  }
  return at(state) ?? at(country);
}
