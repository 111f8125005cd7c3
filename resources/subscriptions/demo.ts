/**
 * The demo subscriptions: two of each type (commission, premier, advert) on the first demo shops, an
 * advert banner bought without a shop, and a premier week waiting for an administrator.
 */
import type { DemoBuilder } from '../../contract';

const TYPES = ['commission', 'premier', 'advert'];

const build: DemoBuilder = async ({ rows }) => {
  const shops = await rows('shops');
  const shop = (k: number) => shops[k % shops.length].id;
  return [
    ...TYPES.flatMap((type, k) => [1, 2].map((n) => ({
      shop_id: shop(k + n), type, nature: 'listing', period: 'month', unit: '1', total_clicks: 100 * n, amount: 10 * (k + n),
      currency: 'USD', payment_gateway: 'paypal', start_date: '2026-01-01', end_date: '2026-12-31', is_active: 1,
    }))),
    {
      shop_id: 0, type: 'advert', nature: 'banner', period: 'month', unit: '1', total_clicks: 250, amount: 49, currency: 'USD',
      payment_gateway: 'bank', start_date: '2026-02-01', end_date: '2026-03-01', is_active: 0,
    },
    {
      shop_id: shop(0), type: 'premier', nature: 'listing', period: 'week', unit: '1', total_clicks: 500, amount: 19, currency: 'USD',
      payment_gateway: 'none', start_date: '2026-11-01', end_date: '2026-11-08', is_active: 0,
    },
  ];
};
export default build;
