/** The directory stand-in (SPEC §7.10, DESIGN D10) and POST /find-place (SPEC §7.9), over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, startServer, type TestServer } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ strict: true, demo: true });
});
afterAll(() => s.close());

describe('country/state/city directory (kept in strict contract mode)', () => {
  it('lists the countries by name with iso2 and coordinates, cacheable', async () => {
    const res = await s.get<{ name: string; iso2: string; latitude: string | null; longitude: string | null }[]>('/directory/countries');
    expect(res.http).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(res.body.length).toBeGreaterThan(200);
    expect(res.body).toContainEqual(expect.objectContaining({ name: 'Nigeria', iso2: 'NG', latitude: expect.any(String), longitude: expect.any(String) }));
    const names = res.body.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('lists the states of a country and the cities of a state', async () => {
    const states = await s.get('/directory/countries/NG/states');
    expect(states.http).toBe(200);
    expect(states.body).toContainEqual(expect.objectContaining({ name: 'Lagos', iso2: 'LA' }));
    const cities = await s.get('/directory/countries/ng/states/la/cities');
    expect(cities.http).toBe(200);
    expect(cities.headers.get('cache-control')).toBe('public, max-age=86400');
    const ikeja = cities.body.find((c: { name: string }) => c.name === 'Ikeja');
    expect(ikeja).toEqual({ name: 'Ikeja', latitude: expect.any(String), longitude: expect.any(String) });
  });

  it('answers unknown codes with 404 and malformed codes with 400, as JSON errors', async () => {
    const country = await s.get('/directory/countries/QQ/states');
    expect(country.http).toBe(404);
    expect(country.body).toEqual({ error: expect.stringContaining('QQ') });
    const state = await s.get('/directory/countries/NG/states/ZZ/cities');
    expect(state.http).toBe(404);
    expect(state.body.error).toContain('ZZ');
    const bad = await s.get('/directory/countries/N%20G!/states');
    expect(bad.http).toBe(400);
    expect(bad.body.error).toMatch(/country code/);
    const tooLong = await s.get('/directory/countries/NGAX/states');
    expect(tooLong.http).toBe(400);
  });

  it('requires the X-CSCAPI-KEY header when a key is configured', async () => {
    const keyed = await startServer({ demo: false, directoryKey: 'secret-key' });
    try {
      expect((await keyed.get('/directory/countries')).http).toBe(401);
      const wrong = await keyed.get('/directory/countries', { 'X-CSCAPI-KEY': 'wrong' });
      expect(wrong.http).toBe(401);
      expect(wrong.body.error).toMatch(/X-CSCAPI-KEY/);
      const right = await keyed.get('/directory/countries/NG/states', { 'X-CSCAPI-KEY': 'secret-key' });
      expect(right.http).toBe(200);
      expect(right.body).toContainEqual(expect.objectContaining({ iso2: 'LA' }));
    } finally {
      await keyed.close();
    }
    // Without a configured key, no header is needed (the shared server above).
    expect((await s.get('/directory/countries')).http).toBe(200);
  });
});

describe('POST /find-place', () => {
  it('finds the place a signed-in user names, best candidate first', async () => {
    const token = await s.login(demo.buyer.email, demo.buyer.password);
    const res = await s.post('/find-place', { location: 'Ikeja Lagos Nigeria' }, token);
    expect(res.http).toBe(200);
    expect(res.body.status).toBe(true);
    const candidates = (res.body as unknown as { candidates: { name: string; geometry: { location: { lat: number; lng: number } } }[] }).candidates;
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.length).toBeLessThanOrEqual(5);
    expect(candidates[0].name).toBe('Ikeja');
    // In Lagos, Nigeria.
    expect(candidates[0].geometry.location.lat).toBeCloseTo(6.6, 0);
    expect(candidates[0].geometry.location.lng).toBeCloseTo(3.3, 0);

    const state = await s.post('/find-place', { location: 'lagos state, NIGERIA' }, token);
    const first = (state.body as unknown as { candidates: { name: string; geometry: { location: { lat: number } } }[] }).candidates[0];
    expect(first.name).toBe('Lagos');
    expect(first.geometry.location.lat).toBeCloseTo(6.5, 0);

    const none = await s.post('/find-place', { location: 'Xyzzyplugh' }, token);
    expect(none.http).toBe(200);
    expect(none.body).toMatchObject({ status: true, candidates: [] });
  });

  it('refuses anonymous callers and bad input with the envelope', async () => {
    const anonymous = await s.post('/find-place', { location: 'Lagos' });
    expect(anonymous.http).toBe(401);
    expect(anonymous.body.status).toBe(false);

    const token = await s.login(demo.seller.email, demo.seller.password);
    const long = await s.post('/find-place', { location: 'Lagos '.repeat(100) }, token);
    expect(long.http).toBe(400);
    expect(long.body).toMatchObject({ status: false, query: 'location must be at most 200 characters' });
    const missing = await s.post('/find-place', {}, token);
    expect(missing.http).toBe(400);
    expect(missing.body.query).toMatch(/location must be text/);
    const blank = await s.post('/find-place', { location: ' ,, ' }, token);
    expect(blank.http).toBe(400);
  });
});
