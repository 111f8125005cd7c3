// @vitest-environment jsdom
import { cleanup, act, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { I18nContextProvider } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../i18n';
import {
  GlobalDialog, ModalProvider, initialModalState, modalReducer, useModalActions,
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

  it('VIEW_ORDER shows the view the payload brings, by loader, with its title', async () => {
    const view = async () => ({ default: ({ order }: { order: { tracking_number: string } }) => <p>Tracking {order.tracking_number}</p> });
    renderDialog({ type: 'open', view: 'VIEW_ORDER', payload: { view, props: { order: { tracking_number: 'TRK-42' } } } });
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Order details');
    expect(await screen.findByText('Tracking TRK-42')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('VIEW_ORDER shows a ready element, or says no order is selected', async () => {
    renderDialog({ type: 'open', view: 'VIEW_ORDER', payload: { title: 'Order #7', body: <p>Seven</p> } });
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Order #7');
    expect(dialog).toHaveTextContent('Seven');
    cleanup();
    renderDialog({ type: 'open', view: 'VIEW_ORDER', payload: { id: 7 } });
    expect(await screen.findByRole('dialog')).toHaveTextContent('No order selected');
  });
});
