/**
 * The dashboard's statistics (SPEC §2.8, DESIGN D2, D9): what each card counts and sums, for the
 * aggregate endpoint of the reference server (an extension) and for the console, which falls back to
 * the contract's search-dive when a server does not know the endpoint.
 */
import { sumConverted, type Rate } from './money';
import { hasAccess, roleOf, type Role } from './roles';
import { DASHBOARD_MONEY_TOKENS } from './access';

/** Extension: POST {from?, to?} (dates 'yyyy-MM-dd' for the charts); 404 on a contract-only server. */
export const DASHBOARD_PATH = '/dashboard';

/** The record types of the admin money row (DESIGN D2: each card its own type). */
export const MONEY_TYPES = ['commission', 'premier', 'advert'] as const;
export type MoneyType = (typeof MONEY_TYPES)[number];

/** A sum in one currency; totals in several currencies are converted before they are added (D14). */
export interface CurrencyTotal {
  currency: string | null;
  amount: number;
}

export interface MoneyCard {
  count: number;
  totals: CurrencyTotal[];
}

export interface DashboardCharts {
  from: string;
  to: string;
  /** Orders and paid totals per day and currency. */
  perDay: { day: string; currency: string | null; count: number; amount: number }[];
  /** Orders per status code (SPEC §4.5). */
  byStatus: { status: number; count: number }[];
  /** The shops with the highest revenue in the range, with their totals per currency. */
  topShops: { id: number; name: string; totals: CurrencyTotal[] }[];
}

export interface DashboardStats {
  role: Role;
  shops: number;
  products: number;
  /** Absent when the viewer may not see it (an admin without the money access). */
  orders?: MoneyCard;
  /** The admin money row, by record type. */
  money?: Record<MoneyType, MoneyCard>;
  /** The admin people row. */
  people?: { admins: number; sellers: number; buyers: number };
  charts?: DashboardCharts;
}

/** The profile fields the cards depend on. */
export interface DashboardViewer {
  id: number | string;
  abilities?: unknown;
  granted_accesses?: unknown;
}

/** SPEC §6.2: the money cards of an admin need one of these accesses. */
export const holdsMoneyAccess = (granted: unknown) => DASHBOARD_MONEY_TOKENS.some((token) => hasAccess(granted, token));

/**
 * Which rows a viewer sees. Admins: the orders card and the money row with the money access
 * (SPEC §6.2), the people row always. Sellers and buyers: their own orders card (D2, D9).
 */
export function cardsFor(viewer: DashboardViewer): { orders: boolean; money: boolean; people: boolean } {
  const role = roleOf(viewer.abilities);
  if (role !== 'admin') return { orders: true, money: false, people: false };
  const money = holdsMoneyAccess(viewer.granted_accesses);
  return { orders: money, money, people: true };
}

/** A card's totals in the viewer's currency: each currency converted, then added (D14). */
export function moneyTotal(totals: readonly CurrencyTotal[], to: string, rates: readonly Rate[]) {
  return sumConverted(totals.map((t) => ({ amount: t.amount, currency: t.currency || 'USD' })), to, rates);
}

/** Sums of amounts per currency: what the server's GROUP BY answers, computed from records. */
export function totalsByCurrency(rows: readonly { amount?: unknown; currency?: unknown }[]): CurrencyTotal[] {
  const sums = new Map<string, number>();
  for (const row of rows) {
    const currency = typeof row.currency === 'string' && row.currency ? row.currency.toUpperCase() : 'USD';
    const amount = Number(row.amount ?? 0);
    sums.set(currency, (sums.get(currency) ?? 0) + (Number.isFinite(amount) ? amount : 0));
  }
  return [...sums].map(([currency, amount]) => ({ currency, amount: Math.round(amount * 100) / 100 })).sort((a, b) => a.currency.localeCompare(b.currency));
}

/** DESIGN D1 over users (or groups of `count` users sharing abilities): how many admins, sellers and buyers. */
export function countRoles(users: readonly { abilities?: unknown; count?: number }[]) {
  const people = { admins: 0, sellers: 0, buyers: 0 };
  for (const user of users) {
    const role = roleOf(user.abilities);
    const n = user.count ?? 1;
    if (role === 'admin') people.admins += n;
    else if (role === 'seller') people.sellers += n;
    else people.buyers += n;
  }
  return people;
}

/** Record rows of a type as a money card (the spec's way, with its two defects fixed). */
export function moneyCardOf(rows: readonly { type?: unknown; amount?: unknown; currency?: unknown }[], type: MoneyType): MoneyCard {
  const mine = rows.filter((r) => String(r.type ?? '').toLowerCase() === type);
  return { count: mine.length, totals: totalsByCurrency(mine) };
}
