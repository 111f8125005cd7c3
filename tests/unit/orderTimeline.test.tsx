// @vitest-environment jsdom
/**
 * An order's dialog and the stock rule: an unpaid new order says until when it holds its stock, and a
 * change the server made itself (the hold ending) says why, instead of naming a person.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext, memoryStore, testDataProvider } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { i18nProvider } from '../../i18n';
import OrderDetails from '../../resources/orders/OrderDetails';
import { MoneyProvider } from '../../src/currency';
import { HOLD_EXPIRED } from '../../server/hooks/orders';

afterEach(cleanup);

const renderOrder = (order: Record<string, unknown>) => {
  const dataProvider = testDataProvider({ call: async () => ({ status: true, HLL: [] }) } as never);
  render(
    <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
      <MoneyProvider>
        <OrderDetails order={order} />
      </MoneyProvider>
    </AdminContext>,
  );
};

const order = {
  id: 41, currency: 'USD', total: 30, paid_total: 0, items: [],
  timeline: [
    { id: 1, from_status: null, to_status: 1, user_name: 'Bea Buyer', created_at: '2026-03-02T10:00:00.000Z' },
    { id: 2, from_status: 1, to_status: 6, user_name: null, reason: HOLD_EXPIRED, created_at: '2026-03-02T11:00:00.000Z' },
  ],
};

describe('order timeline', () => {
  it('says why the server cancelled an unpaid order', async () => {
    renderOrder(order);
    expect(screen.queryByText('Stock held until')).toBeNull();
    const history = await screen.findByRole('list', { name: 'Status history' });
    const lines = [...history.querySelectorAll('li')].map((li) => li.textContent);
    expect(lines[0]).toMatch(/^New Order: placed by Bea Buyer on /);
    expect(lines[1]).toMatch(/^New Order → Order Cancelled: Not paid in time: the stock went back on sale \(.+\)$/);
  });

  it('says until when an unpaid new order holds its stock', async () => {
    renderOrder({ ...order, status: { id: 1 }, timeline: order.timeline.slice(0, 1), hold_until: '2026-03-02T11:00:00.000Z' });
    const label = await screen.findByText('Stock held until');
    expect(label.closest('tr')!.textContent).toMatch(/^Stock held until.*2026/);
  });
});
