/**
 * Table cells (SPEC §2.10–§2.27): the value as the column's kind shows it; double-clicking a cell
 * shows its value in the global dialog (SPEC §2.9), and so do Enter and Space on a focused cell. Cells
 * are reached with the arrow keys from the row's first cell (one tab stop per row, see ListTable).
 */
import type React from 'react';
import { Box } from '@mui/material';
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
  return (
    <Box
      component="span"
      title={text}
      {...keyboard}
      onDoubleClick={() => openModal('ALERT', text)}
      sx={{
        display: 'inline-block', minWidth: 8, maxWidth: 160, verticalAlign: 'middle',
        '&:focus-visible': { outline: 2, outlineStyle: 'solid', outlineColor: 'primary.main', outlineOffset: 2 },
        // Long values are cut short here; a double-click shows them whole.
        // The details view wraps whole values; a numbered list keeps each '1).name' on one line.
        ...(wrap
          ? { whiteSpace: 'pre-line', maxWidth: '100%' }
          : column.kind === 'numbered'
            ? { whiteSpace: 'pre', overflow: 'hidden', textOverflow: 'ellipsis' }
          : { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }),
      }}
    >
      {column.kind === 'status' ? <StatusDot on={isOn(valueAt(record, column.source))} /> : text}
    </Box>
  );
}
