/** Rules of the dashboard cards and money sums (SPEC §2.8, D2, D14) and of the live chat cards (SPEC §2.28, §4.7). */
import { describe, expect, it } from 'vitest';
import { cardsFor, countRoles, moneyCardOf, moneyTotal, totalsByCurrency } from '../../contract/dashboard';
import { chartsOf } from '../../src/dashboard/stats';
import { adminSave, cardOf, fromVisitor, messagesOf, shownMessages } from '../../resources/chats/rules';

const rates = [
  { code: 'USD', value_per_dollar: 1, currency_symbol: '$' },
  { code: 'GBP', value_per_dollar: 0.8, currency_symbol: '£' },
  { code: 'NGN', value_per_dollar: 1600, currency_symbol: '₦' },
];

describe('dashboard cards', () => {
  it('shows admins the money rows only with a money access, sellers and buyers their orders', () => {
    expect(cardsFor({ id: 1, abilities: '[1,2,3]', granted_accesses: '["Currencies-Exchange"]' })).toEqual({ orders: true, money: true, people: true });
    expect(cardsFor({ id: 1, abilities: '[1,2,3]', granted_accesses: '["orders","shops"]' })).toEqual({ orders: false, money: false, people: true });
    expect(cardsFor({ id: 2, abilities: '[1,2]', granted_accesses: '[]' })).toEqual({ orders: true, money: false, people: false });
    expect(cardsFor({ id: 3, abilities: '[1]' })).toEqual({ orders: true, money: false, people: false });
  });

  it('counts each record type apart and sums its amounts, not the running count (the spec’s defects fixed)', () => {
    const rows = [
      { type: 'premier', amount: 10, currency: 'USD' }, { type: 'premier', amount: 5, currency: 'usd' },
      { type: 'advert', amount: 7, currency: 'GBP' }, { type: 'commission', amount: 3, currency: null },
    ];
    expect(moneyCardOf(rows, 'premier')).toEqual({ count: 2, totals: [{ currency: 'USD', amount: 15 }] });
    expect(moneyCardOf(rows, 'advert')).toEqual({ count: 1, totals: [{ currency: 'GBP', amount: 7 }] });
    expect(moneyCardOf(rows, 'commission')).toEqual({ count: 1, totals: [{ currency: 'USD', amount: 3 }] });
  });

  it('converts each currency before adding, and counts amounts without a rate apart', () => {
    const totals = totalsByCurrency([{ amount: 80, currency: 'GBP' }, { amount: 20, currency: 'USD' }, { amount: 1600, currency: 'NGN' }, { amount: 9, currency: 'XYZ' }]);
    expect(moneyTotal(totals, 'USD', rates)).toEqual({ total: 121, unconverted: 1 });
    expect(moneyTotal(totals, 'GBP', rates)).toEqual({ total: 96.8, unconverted: 1 });
  });

  it('classifies users by D1, groups weighted', () => {
    expect(countRoles([{ abilities: '[1,2,3]' }, { abilities: [1, 2] }, { abilities: '[1]', count: 3 }, {}])).toEqual({ admins: 1, sellers: 1, buyers: 4 });
  });

  it('draws the charts from orders in the range only, top shops ranked in one currency', () => {
    const orders = [
      { created_at: '2026-11-01T10:00:00Z', currency: 'GBP', paid_total_fxws: 80, status: 1, shop_id: 1, shop: { name: 'A' } },
      { created_at: '2026-11-01T12:00:00Z', currency: 'USD', paid_total_fxws: 90, status: { id: 2 }, shop_id: 2, shop: { name: 'B' } },
      { created_at: '2026-10-01T12:00:00Z', currency: 'USD', paid_total_fxws: 999, status: 2, shop_id: 3, shop: { name: 'C' } },
    ];
    const c = chartsOf(orders, { from: '2026-10-15', to: '2026-11-20' }, rates);
    expect(c.perDay).toEqual([
      { day: '2026-11-01', currency: 'GBP', count: 1, amount: 80 },
      { day: '2026-11-01', currency: 'USD', count: 1, amount: 90 },
    ]);
    expect(c.byStatus).toEqual([{ status: 1, count: 1 }, { status: 2, count: 1 }]);
    expect(c.topShops.map((s) => s.name)).toEqual(['A', 'B']); // £80 is $100
  });
});

describe('live chat cards', () => {
  const chat = {
    id: 4, admin_online: 0, admin_name: null, received_time: null, user_name: 'Vi', user_email: 'vi@example.com', user_ip_address: '1.2.3.4',
    chats: [{ sent: 1, recieved: 0, message: 'hello' }],
  };

  it("reads 'Incoming' until an admin joins, then 'Received' with the name and the time split on '-'", () => {
    expect(cardOf(chat)).toEqual({ received: false, adminName: '', receivedParts: [] });
    expect(cardOf({ ...chat, admin_online: true, admin_name: 'Ada', received_time: '09:15-21/11/2026' })).toEqual({
      received: true, adminName: 'Ada', receivedParts: ['09:15', '21/11/2026'],
    });
  });

  it('shows the last six messages until Load previous, visitor and admin apart', () => {
    const messages = Array.from({ length: 9 }, (_, i) => ({ sent: (i % 2) as 0 | 1, recieved: ((i + 1) % 2) as 0 | 1, message: `m${i}` }));
    expect(shownMessages(messages, false)).toEqual({ shown: messages.slice(3), hidden: 3 });
    expect(shownMessages(messages, true).shown).toHaveLength(9);
    expect(messages.map(fromVisitor).slice(0, 2)).toEqual([false, true]);
    expect(messagesOf({ id: 1, chats: '[{"sent":1,"recieved":0,"message":"x"},{"bad":1}]' })).toEqual([{ sent: 1, recieved: 0, message: 'x' }]);
  });

  it('saves an accept or an answer with admin_online true, signed by the first admin (SPEC §4.7, §7.8)', () => {
    const when = new Date(2026, 10, 22, 9, 5);
    expect(adminSave(chat, 'Ada', when)).toEqual({
      id: 4, user_name: 'Vi', user_email: 'vi@example.com', user_ip_address: '1.2.3.4',
      admin_online: true, admin_name: 'Ada', received_time: '09:05-22/11/2026', chats: chat.chats,
    });
    const joined = { ...chat, admin_online: 1, admin_name: 'Bo', received_time: '08:00-22/11/2026' };
    const answer = adminSave(joined, 'Ada', when, '  On it  ');
    expect(answer).toMatchObject({ admin_online: true, admin_name: 'Bo', received_time: '08:00-22/11/2026' });
    expect(answer.chats).toEqual([...chat.chats, { sent: 0, recieved: 1, message: 'On it' }]);
  });
});
