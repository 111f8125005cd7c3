import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { LOGO_URL } from '../layout/Brand';
import { PublicTopBar } from '../layout/PublicTopBar';
import { LocaleTheme } from '../layout/LocaleTheme';

/**
 * Frame of the sign-in, register and reset pages: the top bar without a sidebar (SPEC §2.6) and a
 * centred card with the logo and the page heading.
 */
export function AuthShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <LocaleTheme>
      <Box
        sx={{
          minHeight: '100vh',
          display: 'flex',
          flexDirection: 'column',
          background: (theme) =>
            `radial-gradient(circle at 15% 0%, ${theme.palette.primary.light}33 0, transparent 45%), ` +
            `radial-gradient(circle at 90% 100%, ${theme.palette.secondary.light}33 0, transparent 45%), ` +
            theme.palette.background.default,
        }}
      >
        <PublicTopBar />
        <Box
          component="main"
          sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', px: 2, pt: { xs: 10, sm: 12 }, pb: 6 }}
        >
          <Card elevation={0} sx={{ width: '100%', maxWidth: 440, border: 1, borderColor: 'divider', boxShadow: '0 12px 40px rgba(30, 41, 80, 0.08)' }}>
            <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
              <Box component="img" src={LOGO_URL} alt="" width={48} height={48} sx={{ display: 'block', mx: 'auto', mb: 2 }} />
              <Typography variant="h5" component="h1" align="center" sx={{ fontWeight: 600, mb: 3 }}>
                {title}
              </Typography>
              {children}
            </CardContent>
          </Card>
        </Box>
      </Box>
    </LocaleTheme>
  );
}
