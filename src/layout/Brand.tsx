import { Box, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { Link, useTranslate } from 'react-admin';

export const LOGO_URL = `${import.meta.env.BASE_URL}logo.svg`;

/**
 * The logo and product name in the top bar; links to the dashboard (SPEC §2.5). `compact`: under
 * 900 px (phones and tablets) the name is read out but not shown, so that the signed-in top bar's
 * controls, the user menu last, fit in the window.
 */
export function Brand({ compact = false }: { compact?: boolean }) {
  const translate = useTranslate();
  return (
    <Link
      to="/"
      color="inherit"
      underline="none"
      title={translate('shell.home')}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, mr: 2, flexShrink: 0 }}
    >
      <Box component="img" src={LOGO_URL} alt="" width={32} height={32} sx={{ display: 'block' }} />
      <Typography
        component="span"
        variant="h6"
        sx={(theme) => ({ fontWeight: 600, letterSpacing: 0.2, ...(compact ? { [theme.breakpoints.down('md')]: visuallyHidden } : {}) })}
      >
        {translate('shell.brand')}
      </Typography>
    </Link>
  );
}
