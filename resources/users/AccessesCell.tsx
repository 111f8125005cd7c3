/**
 * Granted accesses (SPEC §2.14): the tokens an admin holds, comma-separated on one line, cut short
 * in the cell; double-clicking shows them all, as for any other cell (SPEC §2.9).
 */
import { Box } from '@mui/material';
import { parseAccesses } from '../../contract';
import { useModalActions } from '../../src/dialog';
import type { CellProps } from '../../src/screens/types';

export default function AccessesCell({ record, source }: CellProps) {
  const { openModal } = useModalActions();
  const text = parseAccesses(record[source]).join(', ');
  return (
    <Box
      component="span"
      title={text}
      onDoubleClick={() => openModal('ALERT', text)}
      sx={{ display: 'inline-block', maxWidth: 260, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', verticalAlign: 'middle' }}
    >
      {text}
    </Box>
  );
}
