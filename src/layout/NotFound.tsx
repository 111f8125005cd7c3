import { Box, Button, Typography } from '@mui/material';
import { LinkBase, useTranslate } from 'react-admin';

/** Any path the console does not know (SPEC §2.7): '404!' and 'The page is not found'. */
export function NotFound() {
  const translate = useTranslate();
  return (
    <Box
      component="section"
      sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1, py: 8, textAlign: 'center' }}
    >
      <Typography variant="h1" component="h1" color="primary" sx={{ fontWeight: 700, fontSize: { xs: 64, sm: 96 } }}>
        {translate('not_found.title')}
      </Typography>
      <Typography variant="h6" component="p" color="text.secondary">
        {translate('not_found.message')}
      </Typography>
      <Button component={LinkBase} to="/" variant="contained" sx={{ mt: 3 }}>
        {translate('not_found.back')}
      </Button>
    </Box>
  );
}
