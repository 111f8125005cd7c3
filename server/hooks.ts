/**
 * The few rules that belong to one entity rather than to all (SPEC §4, §5, §9.3): defaults,
 * ownership, categories' subcategories, deletion requests, the seller's own shops.
 */
import { sql } from 'kysely';
import type { EntityContract } from '../contract';
import type { Caller } from './auth';
import type { DB, Row } from './db';
import { now } from './db';
import { badRequest, forbidden } from './errors';
import type { Scope } from './guard';
import { coerce } from './records';

const TITLES: Record<string, string> = {
  shops: 'Shop', products: 'Product', orders: 'Order', templates: 'Template', categories: 'Category',
  brands: 'Brand', subscriptions: 'Subscription', subscriptionPlans: 'Subscription plan', jobs: 'Job post',
  applicants: 'Job application', orderStatuses: 'Order status', exchanges: 'Exchange rate',
  shippings: 'Shipping class', miles: 'Mile price', supports: 'Support message', distances: 'Custom distance',
  deletions: 'Deletion request', chats: 'Chat',
};

/** SPEC §9.3 defaults, applied to new records that have the field. */
const DEFAULTS: Row = {
  premier: 'no', product_type: 'new', state: 'active', quantity: 1, price: 0, sale_price: 0, product_id: 0,
  is_active: 1, status: 1, deletion_status: 'No action', admin_online: 0,
};

export const hooks = {
  defaults: DEFAULTS,
  title: (entity: EntityContract) => TITLES[entity.name] ?? entity.name,

  defaultsFor(entity: EntityContract): Row {
    return Object.fromEntries(Object.entries(DEFAULTS).filter(([k]) => k in entity.fields));
  },

  /** Picking an existing category by name, without its id, adds to that category (SPEC §2.15). */
  async findExisting(db: DB, entity: EntityContract, body: Row): Promise<Row | undefined> {
    if (entity.name !== 'categories' || typeof body.name !== 'string' || !body.name.trim()) return undefined;
    return db
      .selectFrom('categories')
      .select('id')
      .where(sql<boolean>`lower(name) = ${body.name.trim().toLowerCase()}`)
      .executeTakeFirst();
  },

  /** A new record's owner is its creator. */
  ownership(entity: EntityContract, values: Row, caller: Caller | null) {
    for (const key of ['owner_id', 'user_id']) {
      if (key in entity.fields && caller) values[key] = caller.id;
    }
  },

  /** A seller may only place records in their own shops. */
  async checkOwnLinks(db: DB, entity: EntityContract, values: Row, scope: Scope) {
    if (scope.kind !== 'own' || entity.owner?.via !== 'shop_id' || values.shop_id === undefined) return;
    const shop = await db
      .selectFrom('shops')
      .select('id')
      .where('id', '=', Number(values.shop_id))
      .where('owner_id', '=', scope.userId)
      .executeTakeFirst();
    if (!shop) throw forbidden('You can only use your own shops');
  },

  /** Orders' seller screen sends the code as `state` (SPEC §4.5). */
  statusAliases(entity: EntityContract, body: Row): Row {
    if (entity.name === 'orders' && body.status === undefined && body.state !== undefined) return { ...body, status: body.state };
    return body;
  },

  beforeWrite(entity: EntityContract, values: Row, before: Row | undefined): Row {
    if (entity.name === 'deletions') {
      // SPEC §4.6: a request already carried out is final; only 'Deleted' marks it done.
      if (before && Number(before.is_active) === 1) throw badRequest('This user have been previously deleted');
      if (values.deletion_status !== undefined) values.is_active = values.deletion_status === 'Deleted' ? 1 : 0;
    }
    return values;
  },

  async afterWrite(db: DB, entity: EntityContract, row: Row, body: Row) {
    if (entity.name !== 'categories') return;
    const name = coerce('subcategory_name', { type: 'string' }, body.subcategory_name ?? null);
    if ('error' in name) throw badRequest(name.error);
    if (!name.ok) return;
    const serial = body.serial === undefined || body.serial === null || body.serial === '' ? null : String(body.serial).slice(0, 255);
    const same = await db
      .selectFrom('subcategories')
      .select('id')
      .where('category_id', '=', Number(row.id))
      .where(sql<boolean>`lower(name) = ${String(name.ok).toLowerCase()}`)
      .executeTakeFirst();
    if (!same) {
      const stamp = now();
      await db
        .insertInto('subcategories')
        .values({ category_id: row.id, name: name.ok, serial, created_at: stamp, updated_at: stamp })
        .execute();
    }
  },
};
