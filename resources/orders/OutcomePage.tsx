/** /success and /cancel (named routes of SPEC §2.1): the outcome of a checkout. */
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Link, Title, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';

function Outcome({ title, message, action }: { title: string; message: string; action: { to: string; label: string } }) {
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={title} />
      <Card>
        <CardContent>
          <Stack spacing={2} alignItems="flex-start">
            <Typography variant="h5" component="h1">{title}</Typography>
            <Typography>{message}</Typography>
            <Button component={Link} to={action.to} variant="contained">{action.label}</Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}

export function SuccessPage() {
  const translate = useTranslate();
  const orders = (new URLSearchParams(useLocation().search).get('orders') ?? '').split(',').filter((id) => /^\d+$/.test(id));
  return (
    <Outcome
      title={translate('cart.success_title')}
      message={`${translate('cart.success_message', { orders: orders.map((id) => `#${id}`).join(', ') || '—' })} ${translate('cart.unpaid_note')}`}
      action={{ to: '/', label: translate('cart.to_dashboard') }}
    />
  );
}

export function CancelPage() {
  const translate = useTranslate();
  return (
    <Outcome title={translate('cart.cancel_title')} message={translate('cart.cancel_message')} action={{ to: '/checkout', label: translate('cart.back_to_checkout') }} />
  );
}
