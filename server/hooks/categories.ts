/**
 * Categories (SPEC §2.15, §7.6): the Name picker may name an existing category, which is then added
 * to rather than duplicated; a save names one subcategory, added once (case-insensitively), carrying
 * its serial. A monthly fee that rises from nothing sends this month's fee pass through the shops
 * again, so the category's shops pay the month.
 */
import { sql } from 'kysely';
import { now } from '../db';
import { badRequest } from '../errors';
import { restartFeePass } from '../ledger/payouts';
import { coerce } from '../records';
import type { EntityHooks } from './types';

const empty = (v: unknown) => v === undefined || v === null || v === '';

export const hooks: EntityHooks = {
  async findExisting({ db }, body) {
    if (typeof body.name !== 'string' || !body.name.trim()) return undefined;
    const existing = await db
      .selectFrom('categories')
      .select('id')
      .where(sql<boolean>`lower(name) = ${body.name.trim().toLowerCase()}`)
      .executeTakeFirst();
    // Adding a subcategory to a category picked by name (no id was sent) leaves what the form left
    // empty as it was: the commission changes only when it is edited.
    if (existing) for (const key of Object.keys(body)) if (empty(body[key])) delete body[key];
    return existing;
  },

  async beforeWrite({ db, clock }, values, before) {
    const fee = (v: unknown) => Number(v ?? 0) > 0;
    if (before && values.commission_monthly !== undefined && fee(values.commission_monthly) && !fee(before.commission_monthly)) {
      await restartFeePass(db, clock());
    }
    return values;
  },

  async afterWrite({ db }, row, body) {
    const name = coerce('subcategory_name', { type: 'string' }, body.subcategory_name ?? null);
    if ('error' in name) throw badRequest(name.error);
    if (!name.ok) return;
    const serial = empty(body.serial) ? null : String(body.serial).slice(0, 255);
    const same = await db
      .selectFrom('subcategories')
      .select('id')
      .where('category_id', '=', Number(row.id))
      .where(sql<boolean>`lower(name) = ${String(name.ok).toLowerCase()}`)
      .executeTakeFirst();
    if (same) return;
    const stamp = now();
    await db
      .insertInto('subcategories')
      .values({ category_id: row.id, name: name.ok, serial, created_at: stamp, updated_at: stamp })
      .execute();
  },
};
