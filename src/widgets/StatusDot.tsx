import { useTheme } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * A green dot when on, a red one when off (SPEC §2.10, §2.30), named for screen readers. A plain
 * element with its style given inline: a page of rows draws one per row, and Material UI's `sx`
 * worked each one's style out anew (three components and a style to serialize per dot).
 */
export function StatusDot({ on }: { on: boolean }) {
  const translate = useTranslate();
  const { palette } = useTheme();
  return (
    <span
      role="img"
      aria-label={translate(on ? 'management.status_on' : 'management.status_off')}
      data-status={on ? 'on' : 'off'}
      style={{ display: 'inline-block', width: 12, height: 12, borderRadius: '50%', backgroundColor: on ? palette.success.main : palette.error.main }}
    />
  );
}
