import { isValidElement, useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Loader } from '../screens/types';
import { Loaded } from '../screens/loaded';
import { useModalDispatch, useModalState } from './ModalProvider';

/**
 * An ALERT payload: a message, or {title, message}; or {title, body} where a resource brings its own
 * content (a product's images). Non-text messages are shown as JSON.
 */
export interface AlertPayload {
  title?: string;
  message?: unknown;
  body?: ReactNode;
}

/**
 * A VIEW_ORDER payload: the resource that owns the view brings its content, as a component loader
 * with its props (the orders resource's order dialog), or as a ready element; and may name the title.
 */
export interface ViewPayload<P extends object = object> {
  title?: string;
  view?: Loader<P>;
  props?: P;
  body?: ReactNode;
}

function viewBody(payload: unknown): ReactNode {
  if (payload === null || typeof payload !== 'object') return null;
  const { view, props, body } = payload as ViewPayload;
  if (typeof view === 'function') return <Loaded loader={view} props={props ?? {}} />;
  return isValidElement(body) ? body : null;
}

function alertBody(payload: unknown): ReactNode {
  const body = payload !== null && typeof payload === 'object' && 'body' in payload ? (payload as AlertPayload).body : undefined;
  return isValidElement(body) ? body : null;
}

function alertParts(payload: unknown): { title?: string; message: string } {
  const isAlertObject =
    payload !== null && typeof payload === 'object' && !Array.isArray(payload) && ('message' in payload || 'body' in payload);
  const title = isAlertObject ? (payload as AlertPayload).title : undefined;
  const value = isAlertObject ? (payload as AlertPayload).message : payload;
  if (value === null || value === undefined) return { title, message: '' };
  if (typeof value === 'object') return { title, message: JSON.stringify(value, null, 2) };
  return { title, message: String(value) };
}

/** The one dialog of the console (SPEC §2.29): renders the open view, closes back to nothing. */
export function GlobalDialog() {
  const state = useModalState();
  const dispatch = useModalDispatch();
  // Keep showing the last view while the dialog fades out after 'close' cleared the state.
  const [shown, setShown] = useState(state);
  if (state.open && state !== shown) setShown(state);
  const { open } = state;
  const { view, payload } = state.open ? state : shown;
  const translate = useTranslate();
  const close = () => dispatch({ type: 'close' });

  if (view === 'VIEW_ORDER') {
    return (
      <Dialog open={open} onClose={close} fullWidth maxWidth="md" aria-labelledby="global-dialog-title">
        <DialogTitle id="global-dialog-title">{(payload as ViewPayload | null)?.title ?? translate('dialog.order.title')}</DialogTitle>
        <DialogContent dividers>
          {viewBody(payload) ?? <DialogContentText>{translate('dialog.order.empty')}</DialogContentText>}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} autoFocus>
            {translate('dialog.close')}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  const { title, message } = alertParts(payload);
  const body = alertBody(payload);
  return (
    <Dialog
      open={open && view === 'ALERT'}
      onClose={close}
      fullWidth
      maxWidth={body ? 'sm' : 'xs'}
      aria-label={title ?? translate('dialog.alert.title')}
      aria-describedby="global-dialog-message"
    >
      {title ? <DialogTitle>{title}</DialogTitle> : null}
      <DialogContent>
        {body ?? (
          <DialogContentText
            id="global-dialog-message"
            sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', color: 'text.primary', pt: title ? 0 : 1 }}
          >
            {message}
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} variant="contained" autoFocus>
          {translate('dialog.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
