/**
 * Table cells (SPEC §2.10–§2.27): the value as the column's kind shows it; double-clicking a cell
 * shows its value in the global dialog (SPEC §2.9), and so do Enter and Space on a focused cell. Cells
 * are reached with the arrow keys from the row's first cell (one tab stop per row, see ListTable).
 */
import type React from 'react';
import { GlobalStyles, alpha } from '@mui/material';
import { useLocaleState, useTranslate, type RaRecord } from 'react-admin';
import { localDate } from '../../i18n/format';
import { isOn } from '../../contract';
import type { Column } from './types';
import { useModalActions } from '../dialog';
import { StatusDot } from '../widgets/StatusDot';
import { Loaded } from './loaded';

export const valueAt = (record: RaRecord, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), record);

const joined = (parts: unknown[]) => parts.filter((p) => p !== undefined && p !== null && p !== '').join(', ');

const plainText = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** The text of a cell, as the dialog and the CSV export show it. */
export function cellText(record: RaRecord, column: Column, translate: (key: string) => string): string {
  const value = valueAt(record, column.source);
  switch (column.kind) {
    case 'text':
    case 'custom':
      return plainText(value);
    case 'status':
      return translate(isOn(value) ? 'management.status_on' : 'management.status_off');
    case 'joined': {
      const group = (value ?? {}) as Record<string, unknown>;
      return joined(column.parts.map((part) => group[part]));
    }
    case 'numbered':
      return Array.isArray(value) ? value.map((item, i) => `${i + 1}).${(item as { name?: string }).name ?? ''}`).join('\n') : '';
    default: {
      const never: never = column;
      return never;
    }
  }
}

/** Whether the table may sort on a column: only the record's own plain fields. */
export const sortable = (column: Column) => !column.source.includes('.') && (column.kind === 'text' || column.kind === 'status');

/** Marks the elements of a table the arrow keys move between. */
export const CELL_FOCUS = 'data-cell-focus';

/** Enter or Space: the keys that activate a focused cell, as they do a button. */
export const isActivation = (key: string) => key === 'Enter' || key === ' ';

/**
 * `wrap`: the whole value on as many lines as it needs (a detail view), not cut short.
 * `focusable`: a table cell reached with the arrow keys (not the first cell, which opens its row).
 */
export function Cell({ record, column, name, wrap = false, focusable = false }: { record: RaRecord; column: Column; name: string; wrap?: boolean; focusable?: boolean }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { openModal } = useModalActions();
  // Dates are shown in the viewer's language; the export and the search keep the values as sent.
  const text = column.kind === 'text' ? localDate(cellText(record, column, translate), locale) : cellText(record, column, translate);
  if (column.kind === 'custom') return <Loaded loader={column.component} props={{ record, source: column.source, name }} />;
  const keyboard = focusable
    ? {
        tabIndex: -1,
        role: 'button',
        // An empty cell still says what it is to a screen reader.
        ...(text === '' ? { 'aria-label': translate('management.empty_value') } : {}),
        [CELL_FOCUS]: '',
        onKeyDown: (e: React.KeyboardEvent) => {
          if (!isActivation(e.key)) return;
          e.preventDefault();
          e.stopPropagation();
          openModal('ALERT', text);
        },
      }
    : {};
  // Plain elements with classes styled once (CellStyles): a page of rows draws without working
  // out each cell's style anew (MUI's sx on every cell was a third of a page turn's script).
  const shape = wrap ? 'wrap' : column.kind === 'numbered' ? 'lines' : 'line';
  return (
    <span className={`mc-cell mc-cell-${shape}`} title={text} {...keyboard} onDoubleClick={() => openModal('ALERT', text)}>
      {column.kind === 'status' ? <StatusDot on={isOn(valueAt(record, column.source))} /> : text}
    </span>
  );
}

/**
 * The cells' styles, written once for every cell of the screen below: a table cell keeps its value
 * on one line cut short (a double-click shows it whole), a numbered list keeps each '1).name' on
 * its line, the details view wraps whole values; a cell reached with the arrow keys shows its focus.
 * `mc-cell-link` is a button that looks like Material UI's underlined link, for a column's own cell
 * (a component of its resource) to draw as one plain element per row.
 */
export function CellStyles() {
  return (
    <GlobalStyles
      styles={(theme) => ({
        '.mc-cell': { display: 'inline-block', minWidth: 8, maxWidth: 160, verticalAlign: 'middle' },
        // One line cut short ('…' where it is cut, as text-overflow would), of a value that may
        // break between any two letters: a column's narrowest is then its heading's, and the table
        // shares the screen's width among its long values. A line that may not break made every
        // column as wide as its longest value's cut, whatever the screen. (Inline, so that a click
        // beside a short value is still the row's.)
        '.mc-cell-line': { display: '-webkit-inline-box', WebkitBoxOrient: 'vertical', WebkitLineClamp: 1, overflow: 'hidden', wordBreak: 'break-all' },
        '.mc-cell-lines': { whiteSpace: 'pre', overflow: 'hidden', textOverflow: 'ellipsis' },
        '.mc-cell-wrap': { whiteSpace: 'pre-line', maxWidth: '100%' },
        '.mc-cell-link': {
          font: 'inherit', color: theme.palette.primary.main, background: 'transparent', border: 0, margin: 0, padding: 0,
          cursor: 'pointer', whiteSpace: 'nowrap', verticalAlign: 'middle', textDecoration: 'underline',
          textDecorationColor: alpha(theme.palette.primary.main, 0.4), '&:hover': { textDecorationColor: 'inherit' },
        },
        [`[${CELL_FOCUS}]:focus-visible`]: { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
      })}
    />
  );
}
