/**
 * The buyers' catalogue (an extension; absent in strict mode): `POST /catalogue {page, per_page, q}`
 * lists, to any signed-in user, the active products of active shops with what a buyer needs to put
 * them in the cart: name, description, prices, currency, weight, stock and shop. Nothing of the
 * sellers' own screens (bank details, owners) is shown; `own` says whether a product is the caller's.
 */
import type { FastifyInstance } from 'fastify';
import type { Paginated } from '../../contract';
import type { AppContext } from '../context';
import { bodyOf } from '../context';
import { likeInsensitive, type Row } from '../db';
import { badRequest } from '../errors';
import { requireCaller } from '../guard';
import { ok, readListQuery } from './common';

const COLUMNS = ['id', 'name', 'description', 'price', 'sale_price', 'currency', 'weight', 'in_stock', 'shop_id', 'image', 'sku'] as const;

export async function catalogueRoutes(app: FastifyInstance, { db, config }: AppContext) {
  if (config.strict) return;
  app.post('/catalogue', async (request) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    const { page, perPage } = readListQuery({ page: body.page, per_page: body.per_page }, false);
    if (body.q !== undefined && (typeof body.q !== 'string' || body.q.length > 100)) throw badRequest('q must be a text of at most 100 characters');
    const text = typeof body.q === 'string' ? body.q.trim() : '';
    let query = db
      .selectFrom('products')
      .where('state', '=', 'active')
      .where('shop_id', 'in', db.selectFrom('shops').select('id').where('is_active', '=', 1));
    if (text) query = query.where(likeInsensitive('name', `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
    const { count } = (await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()) as { count: number | string };
    const rows = await query.select([...COLUMNS]).orderBy('id', 'desc').limit(perPage).offset((page - 1) * perPage).execute();
    const shopIds = [...new Set(rows.map((r) => Number(r.shop_id)))];
    const shops = shopIds.length ? await db.selectFrom('shops').select(['id', 'name', 'owner_id']).where('id', 'in', shopIds).execute() : [];
    const shopOf = new Map(shops.map((s) => [Number(s.id), s]));
    const data: Row[] = rows.map((r) => {
      const shop = shopOf.get(Number(r.shop_id));
      return {
        ...r,
        currency: { code: r.currency },
        image: typeof r.image === 'string' ? safeJson(r.image) : r.image,
        shop: shop ? { id: shop.id, name: shop.name } : null,
        // The caller's own product: no 'Add to cart' (nobody orders from their own shop).
        own: !!shop && Number(shop.owner_id) === caller.id,
      };
    });
    const total = Number(count);
    const from = data.length ? (page - 1) * perPage + 1 : null;
    const HLL: Paginated<Row> = {
      data, total, from, to: from === null ? null : from + data.length - 1, current_page: page,
      last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage,
    };
    return ok({ HLL });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
