/**
 * Table cells (SPEC §2.10–§2.27): the value as the column's kind shows it; double-clicking a cell
 * shows its value in the global dialog (SPEC §2.9), and so does Enter on a focused cell.
 */
import { Box } from '@mui/material';
import { useLocaleState, useTranslate, type RaRecord } from 'react-admin';
import { localDate } from '../../i18n/format';
import { isOn } from '../../contract';
import type { Column } from '../../resources/types';
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

/** `wrap`: the whole value on as many lines as it needs (a detail view), not cut short. */
export function Cell({ record, column, name, wrap = false }: { record: RaRecord; column: Column; name: string; wrap?: boolean }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { openModal } = useModalActions();
  // Dates are shown in the viewer's language; the export and the search keep the values as sent.
  const text = column.kind === 'text' ? localDate(cellText(record, column, translate), locale) : cellText(record, column, translate);
  if (column.kind === 'custom') return <Loaded loader={column.component} props={{ record, source: column.source, name }} />;
  return (
    <Box
      component="span"
      title={text}
      onDoubleClick={() => openModal('ALERT', text)}
      sx={{
        display: 'inline-block', minWidth: 8, maxWidth: 260, verticalAlign: 'middle',
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
