/**
 * The delivery fee of one shop's part of a cart (docs/decisions.md, "Delivery fees"), from the
 * marketplace's shipping settings:
 *   fee (USD) = the shipping class's amount + the destination country's price per mile × the miles
 * from the shop to the delivery address. The miles come from a custom distance when one names both
 * places (the most precise one wins), else from the straight line between the directory's
 * coordinates of the two places (city, else state, else country). The fee is charged in the order's
 * currency, converted with the current rates, and rounded to the cent.
 */
import { convert, type OfferedClass, type Rate } from '../../../contract';
import type { DB, Row } from '../../db';
import { badRequest } from '../../errors';
import { locate, normalizePlace, type NamedPlace } from '../../routes/directory';

export const KM_PER_MILE = 1.609344;
const EARTH_RADIUS_MILES = 3958.8;

/** What a buyer sees of a shipping class. */
export type ShippingClass = OfferedClass;

export interface Delivery {
  /** In the order's currency, rounded to the cent. */
  delivery_fee: number;
  /** 'Road, 3-5 days, 128.3 miles': what the order keeps of how it is delivered. */
  logistics: string;
  miles: number;
  /** Where the miles come from. */
  distance: 'custom' | 'straight';
  shipping_id: number;
}

const toClass = (r: Row): ShippingClass => ({
  id: Number(r.id), means: String(r.means ?? ''), duration: String(r.duration ?? ''), amount: Number(r.amount ?? 0),
  currency: String(r.currency || 'USD'), note: (r.note as string | null) ?? null,
});

/** The active shipping classes, cheapest first. */
export async function shippingClasses(db: DB): Promise<ShippingClass[]> {
  const rows = await db.selectFrom('shippings').selectAll().where('is_active', '=', 1).orderBy('amount').orderBy('id').execute();
  return rows.map(toClass);
}

/** The class a checkout names (`shipping_id`), else the cheapest on offer; null when none is on offer. */
export async function chooseClass(db: DB, shippingId: unknown): Promise<ShippingClass | null> {
  const classes = await shippingClasses(db);
  if (shippingId === undefined || shippingId === null || shippingId === '') return classes[0] ?? null;
  const id = Number(shippingId);
  const found = Number.isSafeInteger(id) ? classes.find((c) => c.id === id) : undefined;
  if (!found) throw badRequest(`shipping id ${String(shippingId).slice(0, 20)} does not match any shipping class on offer`);
  return found;
}

/** A custom distance's end, 'country,state,area', as normalized parts (empty parts match anything). */
const partsOf = (location: unknown) => String(location ?? '').split(',').map((p) => normalizePlace(p));

/** How precisely a custom distance's end names a place: the number of its parts, or -1 when it names another place. */
function precision(end: string[], place: NamedPlace): number {
  const mine = [place.country, place.state ?? '', place.city ?? ''].map((p) => normalizePlace(String(p)));
  let count = 0;
  for (let i = 0; i < 3; i++) {
    if (!end[i]) continue;
    if (end[i] !== mine[i]) return -1;
    count++;
  }
  return count;
}

/** The kilometres of the most precise custom distance naming both places (either way round), or null. */
export async function customKm(db: DB, from: NamedPlace, to: NamedPlace): Promise<number | null> {
  const rows = await db.selectFrom('distances').select(['location_A', 'location_B', 'distance_km']).execute();
  let best: { score: number; km: number } | null = null;
  for (const row of rows) {
    const a = partsOf(row.location_A);
    const b = partsOf(row.location_B);
    for (const [x, y] of [[a, b], [b, a]]) {
      const px = precision(x, from);
      const py = precision(y, to);
      if (px < 1 || py < 1) continue;
      const score = px + py;
      if (!best || score > best.score) best = { score, km: Number(row.distance_km) };
    }
  }
  return best ? best.km : null;
}

/** Great-circle distance in miles. */
export function straightMiles(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

const describe = (p: NamedPlace) => [p.city, p.state, p.country].filter((x) => x && String(x).trim()).join(', ');

/** Miles from one place to another, to a tenth of a mile. */
export async function milesBetween(db: DB, from: NamedPlace, to: NamedPlace): Promise<{ miles: number; distance: Delivery['distance'] }> {
  const km = await customKm(db, from, to);
  const tenth = (x: number) => Math.round(x * 10) / 10;
  if (km !== null) return { miles: tenth(km / KM_PER_MILE), distance: 'custom' };
  const [a, b] = await Promise.all([locate(from), locate(to)]);
  if (!a) throw badRequest(`The shop's address (${describe(from)}) is not in the location directory: the delivery distance cannot be worked out`);
  if (!b) throw badRequest(`${describe(to)} is not in the location directory: check the delivery address's country`);
  return { miles: tenth(straightMiles(a, b)), distance: 'straight' };
}

/** The active per-mile price (USD) of a country, compared by name, case and accents aside. */
export async function perMile(db: DB, country: string): Promise<number> {
  const rows = await db.selectFrom('miles').select(['country', 'value_per_mile']).where('is_active', '=', 1).orderBy('id').execute();
  const wanted = normalizePlace(country);
  const row = rows.find((r) => normalizePlace(String(r.country ?? '')) === wanted);
  if (!row) throw badRequest(`Delivery to ${country} is not available yet: no per-mile price is set for it`);
  return Number(row.value_per_mile);
}

/**
 * The delivery of one shop's part of a cart to an address, by a shipping class, charged in `currency`.
 * The shop's place is its address (country, state, city); the destination is the delivery address's.
 */
export async function deliveryFor(
  db: DB,
  shop: Row,
  address: NamedPlace,
  shipping: ShippingClass,
  currency: string,
  rates: readonly Rate[],
): Promise<Delivery> {
  const from: NamedPlace = { country: String(shop.country ?? ''), state: shop.state as string | null, city: shop.city as string | null };
  const price = await perMile(db, address.country);
  const { miles, distance } = await milesBetween(db, from, address);
  // In cents: the class's amount plus the miles at the country's price, rounded once.
  const cents = Math.round(shipping.amount * 100 + price * miles * 100);
  const usd = cents / 100;
  let fee = usd;
  if (currency.toUpperCase() !== shipping.currency.toUpperCase()) {
    fee = convert(usd, shipping.currency, currency, rates);
    if (fee === 0 && usd !== 0) throw badRequest(`No exchange rate for ${currency}`);
  }
  return {
    delivery_fee: fee,
    logistics: `${shipping.means}, ${shipping.duration}, ${miles} miles`,
    miles,
    distance,
    shipping_id: shipping.id,
  };
}
