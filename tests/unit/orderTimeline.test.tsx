// @vitest-environment jsdom
/**
 * An order's timeline in its dialog: a change the server made itself (an unpaid order's hold ending)
 * says why, in the reader's language, instead of naming a person.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext, memoryStore, testDataProvider } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { i18nProvider } from '../../i18n';
import OrderDetails from '../../resources/orders/OrderDetails';
import { HOLD_EXPIRED } from '../../server/hooks/orders';

afterEach(cleanup);

const order = {
  id: 41, currency: 'USD', total: 30, paid_total: 0, items: [],
  timeline: [
    { id: 1, from_status: null, to_status: 1, user_name: 'Bea Buyer', created_at: '2026-03-02T10:00:00.000Z' },
    { id: 2, from_status: 1, to_status: 6, user_name: null, reason: HOLD_EXPIRED, created_at: '2026-03-02T11:00:00.000Z' },
  ],
};

describe('order timeline', () => {
  it('says why the server cancelled an unpaid order', async () => {
    const dataProvider = testDataProvider({ call: async () => ({ status: true, HLL: [] }) } as never);
    render(
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <OrderDetails order={order} />
      </AdminContext>,
    );
    const history = await screen.findByRole('list', { name: 'Status history' });
    const lines = [...history.querySelectorAll('li')].map((li) => li.textContent);
    expect(lines[0]).toMatch(/^New Order: placed by Bea Buyer on /);
    expect(lines[1]).toMatch(/^New Order → Order Cancelled: Not paid in time: the stock went back on sale \(.+\)$/);
  });
});
