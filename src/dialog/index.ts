export { ModalProvider, useModalState, useModalDispatch, useModalActions } from './ModalProvider';
export { GlobalDialog, type AlertPayload, type ViewPayload } from './GlobalDialog';
export { modalReducer, initialModalState, type ModalState, type ModalAction, type ModalView } from './modalReducer';
