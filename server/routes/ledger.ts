/**
 * The marketplace's money over the API (issue 28, contract/ledger.ts): balances, postings and
 * statements (a seller their own shops', an admin holding 'payouts' every shop's), refunds (an admin
 * holding 'orders'), payouts and their batch, the commissions report. Amounts are signed integers in
 * minor units. Extensions of the contract: absent in strict mode.
 */
import type { FastifyInstance } from 'fastify';
import { LEDGER_PATHS, PAYOUTS_TOKEN, PAYOUT_STATES, SELLER_ACCOUNTS, minorText, pageOf, toCsv, type CallRole } from '../../contract';
import { bodyOf, type AppContext } from '../context';
import type { Caller } from '../auth';
import type { DB } from '../db';
import { badRequest, forbidden, notFound } from '../errors';
import { authorize, gate, requireCaller, type Gate } from '../guard';
import { isObject, readId } from '../records';
import { balancePage, shopBalances } from '../ledger/core';
import { refund } from '../ledger/earnings';
import { createPayout, settlePayout } from '../ledger/payouts';
import { commissionReport, ledgerPage, statementCsv } from '../ledger/reading';
import { listPage } from '../store';
import { readOne } from './entities';
import { queueMail } from '../mail';
import { audit } from '../audit';
import { requireFreshSecondFactor } from '../secondFactor';
import { ok, readListQuery } from './common';

const NOT_GRANTED = 'Your account has not been granted access to this section';

/** A seller (for their own shops) or an admin holding `token`; checked before the body is read. */
const sellerOr = (token: string): Gate =>
  gate(['seller', 'admin'] as readonly CallRole[], (caller) => {
    const who = requireCaller(caller);
    if (who.role === 'buyer') throw forbidden('This section is only available to sellers and administrators');
    if (who.role === 'admin' && !who.can(token)) throw forbidden(NOT_GRANTED);
  });

/** The shops a seller owns; undefined for an admin, who reads every shop. */
async function ownShops(db: DB, caller: Caller): Promise<number[] | undefined> {
  if (caller.role === 'admin') return undefined;
  const rows = await db.selectFrom('shops').select('id').where('owner_id', '=', caller.id).execute();
  return rows.map((r) => Number(r.id));
}

/** The shops a call may read: the one asked for (refused when it is not the caller's), or all the caller's. */
async function shopsToRead(db: DB, caller: Caller, asked: unknown): Promise<number[] | undefined> {
  const own = await ownShops(db, caller);
  if (asked === undefined || asked === null || asked === '') return own;
  const shopId = readId(asked, 'shop_id');
  if (own && !own.includes(shopId)) throw forbidden('You can only read your own shops');
  return [shopId];
}

const optionalId = (value: unknown, what: string) => (value === undefined || value === null || value === '' ? undefined : readId(value, what));

/** The lines of a refund: [{product_id, quantity}], each product once. */
function readRefundLines(value: unknown): { product_id: number; quantity: number }[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > 100) throw badRequest('lines must list from 1 to 100 {product_id, quantity}');
  const seen = new Set<number>();
  return value.map((line) => {
    if (!isObject(line)) throw badRequest('Each line must be {product_id, quantity}');
    const productId = readId(line.product_id, 'product_id');
    const quantity = Number(line.quantity);
    if (!Number.isInteger(quantity) || quantity < 1) throw badRequest('quantity must be a whole number from 1');
    if (seen.has(productId)) throw badRequest(`Product ${productId} is named twice`);
    seen.add(productId);
    return { product_id: productId, quantity };
  });
}

function readText(value: unknown, what: string, max: number, required: boolean): string | null {
  if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) {
    if (required) throw badRequest(`${what} is required`);
    return null;
  }
  if (typeof value !== 'string') throw badRequest(`${what} must be text`);
  if (value.trim().length > max) throw badRequest(`${what} must be at most ${max} characters`);
  return value.trim();
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The shop's name and its seller, as a payout's mail names them. */
const sellerOf = (db: DB, shopId: number) =>
  db.selectFrom('shops').leftJoin('users', 'users.id', 'shops.owner_id')
    .select(['shops.name as shop_name', 'users.name as name', 'users.email as email'])
    .where('shops.id', '=', shopId).executeTakeFirst();

const iso = (ms: number) => new Date(ms).toISOString();

/** What settling a payout answers. */
const settled = (row: Record<string, unknown>) => (row.state === 'paid' ? `Payout ${String(row.id)} marked paid` : `Payout ${String(row.id)} marked failed`);

export async function ledgerRoutes(app: FastifyInstance, { db, config, registry, services, clock = Date.now }: AppContext) {
  if (config.strict) return;
  const sellerOrPayouts = sellerOr(PAYOUTS_TOKEN);

  const settle = (caller: Caller, body: Record<string, unknown>) => {
    const id = readId(body.id);
    if (body.state !== 'paid' && body.state !== 'failed') throw badRequest("state must be 'paid' or 'failed'");
    const reference = readText(body.reference, 'reference', 255, false);
    return db.transaction().execute(async (trx) => {
      const row = await settlePayout(trx, { id, state: body.state as 'paid' | 'failed', reference, by: caller.id, at: iso(clock()) });
      await audit(trx, { caller, action: 'status', entity: 'payouts', recordId: id, before: { state: 'pending', reference: null }, after: { state: row.state, reference } });
      return row;
    });
  };

  // Payouts on the REST face: read as the payouts call reads them; a PUT settles one (state, reference).
  const PAYOUTS = registry.entities.find((e) => e.name === 'payouts');
  if (PAYOUTS) {
    const admins = (caller: Caller | null) => authorize('admin', PAYOUTS, caller);
    services.set(PAYOUTS.name, {
      entity: PAYOUTS,
      creates: false,
      deletes: false,
      may: (_op, caller) => void admins(caller),
      roles: () => ['admin'],
      readScope: (caller) => admins(caller),
      list: async (caller, q) => listPage(db, PAYOUTS, admins(caller), q),
      one: async (caller, id) => readOne(db, PAYOUTS, admins(caller), id),
      save: async (caller, body) => {
        if (body.id === undefined) throw forbidden(`A payout is made with POST ${LEDGER_PATHS.payout} {shop_id, currency}`);
        const row = await settle(requireCaller(caller), body);
        return ok({ query: settled(row), detail: row });
      },
    });
  }

  app.post(LEDGER_PATHS.balances, { config: { gate: sellerOrPayouts } }, async (request) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    // One shop's rows as a list; every shop the caller may read (an admin: all of them) page by page.
    if (optionalId(body.shop_id, 'shop_id') !== undefined) {
      return ok({ query: 'Balances', HLL: await shopBalances(db, (await shopsToRead(db, caller, body.shop_id))!) });
    }
    const q = readListQuery(body, false);
    return ok({ query: 'Balances', HLL: await balancePage(db, { page: q.page, perPage: q.perPage, shopIds: await ownShops(db, caller) }) });
  });

  app.post(LEDGER_PATHS.ledger, { config: { gate: sellerOrPayouts } }, async (request) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    const q = readListQuery(body, false);
    const shopIds = await shopsToRead(db, caller, body.shop_id);
    const orderId = optionalId(body.order_id, 'order_id');
    // A seller reads their own shops' accounts and the commission taken on them, never the marketplace's others.
    const accounts = caller.role === 'admin' ? undefined : SELLER_ACCOUNTS;
    return ok({ query: 'Ledger', HLL: await ledgerPage(db, { page: q.page, perPage: q.perPage, shopIds, orderId, accounts }) });
  });

  app.get(LEDGER_PATHS.statement, { config: { gate: sellerOrPayouts } }, async (request, reply) => {
    const caller = requireCaller(request.caller);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const shopId = readId(query.shop_id, 'shop_id');
    const [shop] = (await shopsToRead(db, caller, shopId)) ?? [shopId];
    const month = typeof query.month === 'string' ? query.month : '';
    if (!MONTH.test(month)) throw badRequest('month must be YYYY-MM');
    const known = await db.selectFrom('shops').select('id').where('id', '=', shop).executeTakeFirst();
    if (!known) throw notFound(`Shop ${shop} does not exist`);
    const csv = await statementCsv(db, shop, month);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="statement-${shop}-${month}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(csv);
  });

  app.post(LEDGER_PATHS.refund, async (request) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    const orderId = readId(body.order_id, 'order_id');
    const lines = readRefundLines(body.lines);
    const reason = readText(body.reason, 'reason', 255, true)!;
    const made = await db.transaction().execute(async (trx) => {
      const done = await refund(trx, { orderId, lines, reason, by: caller.id, at: iso(clock()) });
      await audit(trx, {
        caller, action: 'refund', entity: 'refunds', recordId: done.id,
        after: { order_id: orderId, shop_id: done.shopId, amount: done.amount, currency: done.currency, reason, lines: done.lines.map(({ product_id, quantity }) => ({ product_id, quantity })) },
      });
      // The buyer's mail, in the refund's transaction.
      const order = await trx.selectFrom('orders').select(['customer_id', 'shop_id', 'tracking_number', 'currency']).where('id', '=', orderId).executeTakeFirstOrThrow();
      const buyer = await trx.selectFrom('users').select(['name', 'email']).where('id', '=', Number(order.customer_id)).executeTakeFirst();
      const shop = await sellerOf(trx, Number(order.shop_id));
      await queueMail(trx, 'REFUND_ISSUED', buyer?.email as string | undefined, {
        name: String(buyer?.name ?? ''), reference: String(order.tracking_number ?? orderId), shop_name: String(shop?.shop_name ?? ''),
        amount: `${String(order.currency ?? '')} ${minorText(done.amount)}`.trim(), reason,
      });
      return done;
    });
    return ok({ query: `Refund of ${minorText(made.amount)} recorded on order ${orderId}`, detail: { id: made.id, amount: made.amount } });
  });

  app.post(LEDGER_PATHS.payout, async (request) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    const shopId = readId(body.shop_id, 'shop_id');
    const currency = readText(body.currency, 'currency', 8, true)!;
    // Money leaves the marketplace: a fresh second factor when the admin has one, before anything moves.
    await requireFreshSecondFactor(caller, clock());
    const made = await db.transaction().execute(async (trx) => {
      const done = await createPayout(trx, { shopId, currency, by: caller.id, at: iso(clock()) });
      await audit(trx, { caller, action: 'payout', entity: 'payouts', recordId: done.id, after: { shop_id: shopId, amount: done.amount, currency: done.currency, method: done.method } });
      // The seller's mail, in the payout's transaction.
      const shop = await sellerOf(trx, shopId);
      await queueMail(trx, 'PAYOUT_SENT', shop?.email as string | undefined, {
        name: String(shop?.name ?? ''), shop_name: String(shop?.shop_name ?? ''), amount: `${done.currency} ${minorText(done.amount)}`, payout_id: done.id,
      });
      return done;
    });
    return ok({ query: `Payout of ${minorText(made.amount)} ${made.currency} created`, detail: { id: made.id, amount: made.amount } });
  });

  app.post(LEDGER_PATHS.payoutStatus, async (request) => {
    const row = await settle(requireCaller(request.caller), bodyOf(request));
    return ok({ query: settled(row), detail: row });
  });

  app.post(LEDGER_PATHS.payouts, async (request) => {
    const body = bodyOf(request);
    const q = readListQuery(body, false);
    const shopId = optionalId(body.shop_id, 'shop_id');
    if (body.state !== undefined && !PAYOUT_STATES.includes(body.state as never)) throw badRequest(`state must be one of ${PAYOUT_STATES.join(', ')}`);
    let query = db.selectFrom('payouts').leftJoin('shops', 'shops.id', 'payouts.shop_id');
    if (shopId) query = query.where('payouts.shop_id', '=', shopId);
    if (body.state !== undefined) query = query.where('payouts.state', '=', String(body.state));
    const total = Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await query
      .selectAll('payouts')
      .select('shops.name as shop_name')
      .orderBy('payouts.id', 'desc')
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage)
      .execute();
    const data = rows.map((r) => ({ ...r, amount: Number(r.amount), destination: typeof r.destination === 'string' ? JSON.parse(r.destination) : r.destination }));
    return ok({ query: 'Payouts', HLL: pageOf(data, total, q.page, q.perPage) });
  });

  app.post(LEDGER_PATHS.batch, async (request, reply) => {
    const ids = bodyOf(request).ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 1000) throw badRequest('ids must list from 1 to 1000 payouts');
    const wanted = ids.map((id) => readId(id, 'Each id'));
    const rows = await db
      .selectFrom('payouts')
      .leftJoin('shops', 'shops.id', 'payouts.shop_id')
      .selectAll('payouts')
      .select('shops.name as shop_name')
      .where('payouts.id', 'in', wanted)
      .where('payouts.state', '=', 'pending')
      .orderBy('payouts.id')
      .execute();
    if (!rows.length) throw badRequest('None of these payouts is waiting to be paid');
    const header = ['payout_id', 'shop_id', 'shop_name', 'method', 'account_name', 'account_number', 'bank_name', 'bank_country', 'swift_code', 'sort_code', 'paypal_email', 'currency', 'amount'];
    const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
    const lines = rows.map((r) => {
      const to = (typeof r.destination === 'string' ? JSON.parse(r.destination) : r.destination ?? {}) as Record<string, unknown>;
      return [
        text(r.id), text(r.shop_id), text(r.shop_name), text(r.method), text(to.account_name), text(to.account_number), text(to.bank_name),
        text(to.bank_country), text(to.swift_code), text(to.sort_code), text(to.paypal_email), text(r.currency), minorText(Number(r.amount)),
      ];
    });
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="payouts-${iso(clock()).slice(0, 10)}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(`${toCsv([header, ...lines])}\r\n`);
  });

  app.post(LEDGER_PATHS.commissions, async (request) => {
    const body = bodyOf(request);
    const today = iso(clock()).slice(0, 10);
    const from = body.from === undefined ? `${String(Number(today.slice(0, 4)) - 1)}${today.slice(4, 7)}-01` : String(body.from);
    const to = body.to === undefined ? today : String(body.to);
    if (!DAY.test(from) || !DAY.test(to) || Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(to))) throw badRequest('from and to must be dates (YYYY-MM-DD)');
    if (from > to) throw badRequest('from must not be after to');
    const end = iso(Date.parse(to) + 24 * 3600_000);
    return ok({ query: 'Commissions', HLL: await commissionReport(db, iso(Date.parse(from)), end) });
  });
}
