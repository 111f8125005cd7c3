import { createContext, useCallback, useContext, useMemo, useReducer, type Dispatch, type ReactNode } from 'react';
import { initialModalState, modalReducer, type ModalAction, type ModalState, type ModalView } from './modalReducer';

const ModalStateContext = createContext<ModalState | undefined>(undefined);
const ModalDispatchContext = createContext<Dispatch<ModalAction> | undefined>(undefined);

/** Holds the global dialog's state; mounted once by the console layout. */
export function ModalProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(modalReducer, initialModalState);
  return (
    <ModalStateContext.Provider value={state}>
      <ModalDispatchContext.Provider value={dispatch}>{children}</ModalDispatchContext.Provider>
    </ModalStateContext.Provider>
  );
}

export function useModalState(): ModalState {
  const state = useContext(ModalStateContext);
  if (state === undefined) throw new Error('use State Modal must be under Provider');
  return state;
}

export function useModalDispatch(): Dispatch<ModalAction> {
  const dispatch = useContext(ModalDispatchContext);
  if (dispatch === undefined) throw new Error('use Dispatch Modal must be under Provider');
  return dispatch;
}

/**
 * Convenience wrapper over useModalDispatch:
 * `const { openModal, closeModal } = useModalActions(); openModal('ALERT', 'Saved');`
 */
export function useModalActions() {
  const dispatch = useModalDispatch();
  const openModal = useCallback(
    (view: ModalView, payload?: unknown) => dispatch({ type: 'open', view, payload }),
    [dispatch],
  );
  const closeModal = useCallback(() => dispatch({ type: 'close' }), [dispatch]);
  return useMemo(() => ({ openModal, closeModal }), [openModal, closeModal]);
}
