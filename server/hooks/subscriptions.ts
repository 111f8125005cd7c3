/**
 * Subscriptions (resources/subscriptions): activating one mails the seller of its shop, in the
 * transaction that activates it (the SUBSCRIPTION_ACTIVE template).
 */
import { queueMail } from '../mail';
import type { EntityHooks } from './types';

export const hooks: EntityHooks = {
  async beforeWrite({ db }, values, before) {
    const activated = values.is_active !== undefined && Number(values.is_active) === 1 && Number(before?.is_active ?? 0) !== 1;
    if (!activated) return values;
    const shop = await db
      .selectFrom('shops')
      .innerJoin('users', 'users.id', 'shops.owner_id')
      .select(['shops.name as shop_name', 'users.name as name', 'users.email as email'])
      .where('shops.id', '=', Number(values.shop_id ?? before?.shop_id))
      .executeTakeFirst();
    if (shop) {
      const value = (name: string) => String(values[name] ?? before?.[name] ?? '');
      await queueMail(db, 'SUBSCRIPTION_ACTIVE', String(shop.email ?? ''), {
        name: String(shop.name ?? ''), shop_name: String(shop.shop_name ?? ''), package: `${value('type')} ${value('nature')}`.trim(),
        start_date: value('start_date'), end_date: value('end_date'),
      });
    }
    return values;
  },
};
