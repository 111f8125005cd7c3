/**
 * Table cells (SPEC §2.10–§2.27): the value as the column's kind shows it; double-clicking a cell
 * shows its value in the global dialog (SPEC §2.9).
 */
import { Box } from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import type { Column } from '../../resources/types';
import { useModalActions } from '../dialog';
import { StatusDot, isOn } from '../widgets/StatusDot';

export const valueAt = (record: RaRecord, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), record);

const joined = (parts: unknown[]) => parts.filter((p) => p !== undefined && p !== null && p !== '').join(', ');

/** The text of a cell, as the dialog shows it. */
export function cellText(record: RaRecord, column: Column, translate: (key: string) => string): string {
  const value = valueAt(record, column.source);
  switch (column.cell) {
    case 'status':
      return translate(isOn(value) ? 'management.status_on' : 'management.status_off');
    case 'location': {
      const address = (value ?? {}) as Record<string, unknown>;
      return joined([address.city, address.state, address.country]);
    }
    case 'numbered':
      return Array.isArray(value) ? value.map((item, i) => `${i + 1}).${(item as { name?: string }).name ?? ''}`).join('\n') : '';
    case 'stock':
      return value === null || value === undefined || Number(value) > 0 ? String(value ?? '') : translate('management.out_of_stock');
    default:
      return value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

export function Cell({ record, column }: { record: RaRecord; column: Column }) {
  const translate = useTranslate();
  const { openModal } = useModalActions();
  const text = cellText(record, column, translate);
  return (
    <Box
      component="span"
      title={text}
      onDoubleClick={() => openModal('ALERT', text)}
      sx={{
        display: 'inline-block', minWidth: 8, maxWidth: 260, verticalAlign: 'middle',
        // Long values are cut short here; a double-click shows them whole.
        ...(column.cell === 'numbered'
          ? { whiteSpace: 'pre-line' }
          : { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }),
      }}
    >
      {column.cell === 'status' ? <StatusDot on={isOn(valueAt(record, column.source))} /> : text}
    </Box>
  );
}
