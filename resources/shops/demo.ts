/**
 * The demo shops: twelve of the demo seller's and six of a second seller's, across four cities and
 * the demo categories, some with a PayPal account, every fifth one switched off.
 */
import type { DemoBuilder } from '../../contract';
import { account, DEMO_ACCOUNTS, OTHER_SELLER } from '../users/demo';

const CITIES = [
  ['Lagos', 'Lagos', 'Nigeria', '100001'], ['London', 'England', 'United Kingdom', 'SW1A 1AA'],
  ['Monrovia', 'Montserrado', 'Liberia', '1000'], ['Austin', 'Texas', 'United States', '73301'],
];

const build: DemoBuilder = async ({ rows }) => {
  const users = await rows('users');
  const categories = await rows('categories');
  const seller = account(users, DEMO_ACCOUNTS.seller.email);
  const other = account(users, OTHER_SELLER.email);
  return Array.from({ length: 18 }, (_, k) => {
    const i = k + 1;
    const [city, state, country, zip] = CITIES[i % CITIES.length];
    const owner = i <= 12 ? seller : other;
    return {
      owner_id: owner.id, name: `${owner === seller ? 'Sam' : 'Olu'}'s Store ${i}`, description: `Everyday goods, branch ${i}`,
      category_id: categories[i % categories.length].id, street_name: `${i} Market Street`, zip, city, state, country,
      bank_name: 'First Bank', bank_country: country, swift_code: 'FBNINGLA', sort_code: '20-00-00',
      account_name: String(owner.name), account_number: String(10000000 + i),
      paypal_email: i % 2 ? `shop${i}@example.com` : '', name_of_seller: i % 2 ? String(owner.name) : '', is_active: i % 5 ? 1 : 0,
    };
  });
};
export default build;
