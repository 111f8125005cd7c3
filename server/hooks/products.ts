/**
 * Products (SPEC §3.4, §5): the two rules the product form states in its own words.
 * - The sale price is less than 'Price' when the price is greater than zero (a price of 0 means no
 *   crossed-out price: the sale price is then the price).
 * - 'Unique Currency per Shop': every product of a shop is priced in one currency. A save that
 *   leaves a product's currency and shop as they were is not refused for products written before
 *   the rule.
 * The demo products get their pictures in the file store once they are in (./products/pictures.ts).
 */
import { sql } from 'kysely';
import { badRequest, conflict } from '../errors';
import type { Row } from '../db';
import { checkOwnLinks } from '../guard';
import { demoPictures } from './products/pictures';
import type { EntityHooks } from './types';

export const SALE_PRICE_RULE = "Sale price must be less than 'Price' when greater than Zero";

const changed = (values: Row, before: Row | undefined, key: string) =>
  values[key] !== undefined && (!before || String(values[key] ?? '').toUpperCase() !== String(before[key] ?? '').toUpperCase());

export const hooks: EntityHooks = {
  async beforeWrite({ db, entity, scope }, values, before) {
    const merged: Row = { ...before, ...values };
    if (changed(values, before, 'price') || changed(values, before, 'sale_price')) {
      const price = Number(merged.price ?? 0);
      if (price > 0 && Number(merged.sale_price ?? 0) >= price) throw badRequest(SALE_PRICE_RULE);
    }
    if ((changed(values, before, 'currency') || changed(values, before, 'shop_id')) && merged.currency && merged.shop_id) {
      // Whose shop it is comes first: a seller learns nothing of another seller's shop.
      await checkOwnLinks(db, entity, values, scope);
      let others = db
        .selectFrom('products')
        .select('currency')
        .where('shop_id', '=', Number(merged.shop_id))
        // Currency codes are compared case-insensitively (SPEC §3.14).
        .where(sql<boolean>`upper(currency) <> ${String(merged.currency).toUpperCase()}`);
      if (before) others = others.where('id', '!=', Number(before.id));
      const other = await others.executeTakeFirst();
      if (other) {
        throw conflict(`Unique Currency per Shop: this shop's products are priced in ${String(other.currency)}, not ${String(merged.currency)}`);
      }
    }
    return values;
  },

  async afterDemo({ db, files }, rows) {
    if (files) await demoPictures(db, files, rows);
  },
};
