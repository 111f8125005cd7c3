import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';

/** A green dot when on, a red one when off (SPEC §2.10, §2.30), named for screen readers. */
export function StatusDot({ on }: { on: boolean }) {
  const translate = useTranslate();
  return (
    <Box
      component="span"
      role="img"
      aria-label={translate(on ? 'management.status_on' : 'management.status_off')}
      data-status={on ? 'on' : 'off'}
      sx={{ display: 'inline-block', width: 12, height: 12, borderRadius: '50%', bgcolor: on ? 'success.main' : 'error.main' }}
    />
  );
}
