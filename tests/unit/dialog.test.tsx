// @vitest-environment jsdom
import { cleanup, act, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { I18nContextProvider } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../i18n';
import {
  GlobalDialog, ModalProvider, initialModalState, joinAddress, modalReducer, orderDetailRows, useModalActions,
  useModalDispatch, useModalState, type ModalAction,
} from '../../src/dialog';

afterEach(cleanup);

describe('global dialog reducer', () => {
  it('opens with a view and a payload, and close clears both', () => {
    expect(initialModalState).toEqual({ open: false, view: '', payload: null });
    const opened = modalReducer(initialModalState, { type: 'open', view: 'ALERT', payload: 'Saved' });
    expect(opened).toEqual({ open: true, view: 'ALERT', payload: 'Saved' });
    expect(modalReducer(opened, { type: 'close' })).toEqual({ open: false, view: '', payload: null });
  });

  it("rejects any other action with 'Unknown Modal Action!'", () => {
    const bogus = { type: 'toggle' } as unknown as ModalAction;
    expect(() => modalReducer(initialModalState, bogus)).toThrow(new Error('Unknown Modal Action!'));
  });
});

describe('global dialog hooks', () => {
  it('throw the exact messages outside the provider', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useModalState())).toThrow('use State Modal must be under Provider');
    expect(() => renderHook(() => useModalDispatch())).toThrow('use Dispatch Modal must be under Provider');
    quiet.mockRestore();
  });

  it('share one state under the provider', () => {
    const { result } = renderHook(() => ({ state: useModalState(), actions: useModalActions() }), {
      wrapper: ModalProvider,
    });
    act(() => result.current.actions.openModal('VIEW_ORDER', { id: 7 }));
    expect(result.current.state).toEqual({ open: true, view: 'VIEW_ORDER', payload: { id: 7 } });
    act(() => result.current.actions.closeModal());
    expect(result.current.state).toEqual(initialModalState);
  });
});

function Opener({ action }: { action: ModalAction }) {
  const dispatch = useModalDispatch();
  return <button onClick={() => dispatch(action)}>open</button>;
}

function renderDialog(action: ModalAction) {
  render(
    <I18nContextProvider value={i18nProvider}>
      <ModalProvider>
        <Opener action={action} />
        <GlobalDialog />
      </ModalProvider>
    </I18nContextProvider>,
  );
  fireEvent.click(screen.getByText('open'));
}

describe('global dialog views', () => {
  it('ALERT shows the message and closes with OK', async () => {
    renderDialog({ type: 'open', view: 'ALERT', payload: 'Shop updated successfully' });
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Shop updated successfully');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('VIEW_ORDER shows the order as a table, the address joined with commas', async () => {
    const order = {
      id: 42,
      tracking_number: 'TRK-42',
      status: { id: 3, name: 'Order Shipped' },
      currency: 'USD',
      total: 120,
      paid_total: 99.5,
      shipping_address: { street_name: '1 Main St', city: 'Monrovia', state: 'Montserrado', country: 'Liberia', zip: '1000' },
    };
    renderDialog({ type: 'open', view: 'VIEW_ORDER', payload: order });
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Order details');
    expect(dialog).toHaveTextContent('TRK-42');
    expect(dialog).toHaveTextContent('Order Shipped');
    expect(dialog).toHaveTextContent('1 Main St, Monrovia, Montserrado, Liberia, 1000');
    expect(orderDetailRows(order).find(([key]) => key === 'dialog.order.total')?.[1]).toMatch(/120.00 USD$/);
    expect(joinAddress({ street_name: 'A', city: '', state: null, country: 'B', zip: undefined })).toBe('A, B');
  });
});
