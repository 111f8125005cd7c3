/** What an audit entry changed: 'field: before → after', one line each; a double-click shows all. */
import { Box } from '@mui/material';
import { useModalActions } from '../../src/dialog';
import type { CellProps } from '../../src/screens/types';

const show = (value: unknown) => (value === null || value === undefined || value === '' ? '∅' : typeof value === 'object' ? JSON.stringify(value) : String(value));

export function changeLines(before: unknown, after: unknown): string[] {
  const was = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  const is = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(was), ...Object.keys(is)])];
  return keys.map((key) => (key in was && key in is ? `${key}: ${show(was[key])} → ${show(is[key])}` : `${key}: ${show(key in is ? is[key] : was[key])}`));
}

export default function ChangesCell({ record }: CellProps) {
  const { openModal } = useModalActions();
  const lines = changeLines(record.before, record.after);
  const text = lines.join('\n');
  return (
    <Box
      component="span"
      title={text}
      onDoubleClick={() => openModal('ALERT', text)}
      sx={{ display: 'inline-block', maxWidth: 360, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
    >
      {lines.slice(0, 2).join('; ')}
      {lines.length > 2 ? ` (+${lines.length - 2})` : ''}
    </Box>
  );
}
