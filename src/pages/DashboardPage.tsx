import { Box, Card, CardContent, Typography } from '@mui/material';
import { useGetIdentity, useTranslate } from 'react-admin';

/** The dashboard at / (SPEC §2.8). Its statistics cards arrive with a later piece of work. */
export default function DashboardPage() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const name = typeof identity?.fullName === 'string' ? identity.fullName.trim() : '';
  return (
    <Box sx={{ py: 3, px: { xs: 1, sm: 2 } }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 600, mb: 2 }}>
        {translate('dashboard.title')}
      </Typography>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="p">
            {name ? translate('dashboard.welcome', { name }) : translate('dashboard.welcome_anonymous')}
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
}
