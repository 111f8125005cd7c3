/**
 * State of the one global dialog (SPEC §2.29, §4.10): closed, or open on a view with a payload.
 */
export type ModalView = 'ALERT' | 'VIEW_ORDER';

export interface ModalState {
  open: boolean;
  /** '' when closed. */
  view: ModalView | '';
  payload: unknown;
}

export type ModalAction =
  | { type: 'open'; view: ModalView; payload?: unknown }
  | { type: 'close' };

export const initialModalState: ModalState = { open: false, view: '', payload: null };

export function modalReducer(_state: ModalState, action: ModalAction): ModalState {
  switch (action.type) {
    case 'open':
      return { open: true, view: action.view, payload: action.payload ?? null };
    case 'close':
      return initialModalState;
    default:
      throw new Error('Unknown Modal Action!');
  }
}
