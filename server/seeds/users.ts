/**
 * Demo accounts of the users screen: a partial admin (some accesses only, so Assign Roles shows
 * switches they cannot turn), a blacklisted buyer, and a few more buyers and sellers to page through.
 * Their passwords are listed in the README.
 */
import { ADMIN_ABILITIES, DEFAULT_ABILITIES, REGISTER_ABILITIES } from '../../contract';
import type { DB } from '../db';
import { createUser } from '../routes/users';

export async function seedUsers(db: DB): Promise<void> {
  await createUser(db, {
    name: 'Pat Partial', email: 'pat@example.com', phone: '+14155550103', password: 'pat12345',
    abilities: ADMIN_ABILITIES, granted: ['users', 'shops', 'products', 'orders', 'brands'],
  });
  const blocked = await createUser(db, {
    name: 'Ben Blocked', email: 'ben@example.com', phone: '+14155550104', password: 'ben12345', abilities: DEFAULT_ABILITIES,
  });
  await db.updateTable('users').set({ is_active: 0 }).where('id', '=', Number(blocked.id)).execute();
  const people: [string, string, number[]][] = [
    ['Chioma Eze', 'chioma@example.com', REGISTER_ABILITIES],
    ['Dele Ade', 'dele@example.com', DEFAULT_ABILITIES],
    ['Efua Mensah', 'efua@example.com', REGISTER_ABILITIES],
    ['Femi Bello', 'femi@example.com', DEFAULT_ABILITIES],
  ];
  for (const [i, [name, email, abilities]] of people.entries()) {
    await createUser(db, { name, email, phone: `+14155550${110 + i}`, password: `${name.split(' ')[0].toLowerCase()}1234`, abilities });
  }
}
