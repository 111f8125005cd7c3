/**
 * Subcategories (named route /subcategory): renamed or moved to another category by an admin. A
 * name is unique within its category (case-insensitively), as the category's own save keeps it.
 */
import { sql } from 'kysely';
import { conflict } from '../errors';
import type { EntityHooks } from './types';

export const hooks: EntityHooks = {
  async beforeWrite({ db }, values, before) {
    const name = values.name !== undefined ? values.name : before?.name;
    const categoryId = values.category_id !== undefined ? values.category_id : before?.category_id;
    if (typeof name !== 'string' || !name.trim() || categoryId === undefined || categoryId === null) return values;
    let query = db
      .selectFrom('subcategories')
      .select('id')
      .where('category_id', '=', Number(categoryId))
      .where(sql<boolean>`lower(name) = ${name.trim().toLowerCase()}`);
    if (before) query = query.where('id', '!=', Number(before.id));
    if (await query.executeTakeFirst()) {
      const category = await db.selectFrom('categories').select('name').where('id', '=', Number(categoryId)).executeTakeFirst();
      throw conflict(`The name '${name}' is already used by another subcategory of ${String(category?.name ?? `category ${String(categoryId)}`)}`);
    }
    return values;
  },
};
