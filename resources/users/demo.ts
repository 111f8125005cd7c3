/**
 * The demo accounts (DESIGN D7; their passwords are in the README): the three of the quick start, a
 * second seller, a partial admin (some accesses only, so Assign Roles shows switches they cannot
 * turn), a blacklisted buyer, a few more buyers and sellers to page through, and two buyers of the
 * demo orders. Written by the users' hooks (server/hooks/users.ts), which hash the passwords.
 */
import { ADMIN_ABILITIES, DEFAULT_ABILITIES, REGISTER_ABILITIES, type DeclaredRow, type DemoBuilder } from '../../contract';

export const DEMO_ACCOUNTS = {
  admin: { name: 'Ada Admin', email: 'admin@example.com', phone: '+14155550100', password: 'admin1234' },
  seller: { name: 'Sam Seller', email: 'seller@example.com', phone: '+14155550101', password: 'seller1234' },
  buyer: { name: 'Bea Buyer', email: 'buyer@example.com', phone: '+14155550102', password: 'buyer1234' },
} as const;

/** The second seller, owner of the last demo shops. */
export const OTHER_SELLER = { name: 'Olu Okafor', email: 'olu@example.com', phone: '+2348030000000', password: 'olu-seller-1' } as const;

/** The buyers of the demo orders, besides the demo buyer. */
export const ORDER_BUYERS = [
  { name: 'Kofi Mensah', email: 'kofi@example.com', phone: '+233200000001', password: 'kofi-buyer-1' },
  { name: 'Greta Braun', email: 'greta@example.com', phone: '+4930000002', password: 'greta-buyer-1' },
] as const;

/**
 * For other entities' demo rows: the account with this email among the users' rows, or the first one
 * when it is gone (the users' rows were there before, and the other entity's table was emptied).
 */
export const account = (users: readonly DeclaredRow[], email: string): DeclaredRow =>
  users.find((user) => user.email === email) ?? users[0];

const people: [string, string, number[]][] = [
  ['Chioma Eze', 'chioma@example.com', REGISTER_ABILITIES],
  ['Dele Ade', 'dele@example.com', DEFAULT_ABILITIES],
  ['Efua Mensah', 'efua@example.com', REGISTER_ABILITIES],
  ['Femi Bello', 'femi@example.com', DEFAULT_ABILITIES],
];

/** Rows of the users' `insertDemo` hook: the account, its password, abilities and granted accesses. */
const build: DemoBuilder = ({ registry }) => [
  { ...DEMO_ACCOUNTS.admin, abilities: ADMIN_ABILITIES, granted: [...registry.assignable] },
  { ...DEMO_ACCOUNTS.seller, abilities: REGISTER_ABILITIES },
  { ...DEMO_ACCOUNTS.buyer, abilities: DEFAULT_ABILITIES },
  { ...OTHER_SELLER, abilities: REGISTER_ABILITIES },
  {
    name: 'Pat Partial', email: 'pat@example.com', phone: '+14155550103', password: 'pat12345',
    abilities: ADMIN_ABILITIES, granted: ['users', 'shops', 'products', 'orders', 'brands'],
  },
  { name: 'Ben Blocked', email: 'ben@example.com', phone: '+14155550104', password: 'ben12345', abilities: DEFAULT_ABILITIES, is_active: 0 },
  ...people.map(([name, email, abilities], i) => ({
    name, email, phone: `+14155550${110 + i}`, password: `${name.split(' ')[0].toLowerCase()}1234`, abilities,
  })),
  ...ORDER_BUYERS.map((buyer) => ({ ...buyer, abilities: DEFAULT_ABILITIES })),
];
export default build;
