export { ModalProvider, useModalState, useModalDispatch, useModalActions } from './ModalProvider';
export { GlobalDialog, type AlertPayload } from './GlobalDialog';
export { OrderDetails, orderDetailRows, joinAddress } from './OrderDetails';
export { modalReducer, initialModalState, type ModalState, type ModalAction, type ModalView } from './modalReducer';
