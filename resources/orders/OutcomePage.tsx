/** /success and /cancel (named routes of SPEC §2.1): the outcome of a checkout. */
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Link, Title, useCanAccess, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { PURCHASES_PATH } from './paths';

type Action = { to: string; label: string };

function Outcome({ title, message, actions }: { title: string; message: string; actions: readonly Action[] }) {
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={title} />
      <Card>
        <CardContent>
          <Stack spacing={2} alignItems="flex-start">
            <Typography variant="h5" component="h1">{title}</Typography>
            <Typography>{message}</Typography>
            <Stack direction="row" spacing={2} flexWrap="wrap" useFlexGap>
              {actions.map((action, i) => (
                <Button key={action.to} component={Link} to={action.to} variant={i === 0 ? 'contained' : 'outlined'}>{action.label}</Button>
              ))}
            </Stack>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}

export function SuccessPage() {
  const translate = useTranslate();
  const placed = (new URLSearchParams(useLocation().search).get('orders') ?? '').split(',').filter((id) => /^\d+$/.test(id));
  // A buyer follows the order in their purchases.
  const purchases = PURCHASES_PATH;
  const { canAccess } = useCanAccess({ resource: purchases.slice(1), action: 'list' });
  return (
    <Outcome
      title={translate('cart.success_title')}
      message={`${translate('cart.success_message', { orders: placed.map((id) => `#${id}`).join(', ') || '—' })} ${translate('cart.unpaid_note')}`}
      actions={[
        ...(canAccess ? [{ to: purchases, label: translate('cart.to_purchases') }] : []),
        { to: '/', label: translate('cart.to_dashboard') },
      ]}
    />
  );
}

export function CancelPage() {
  const translate = useTranslate();
  return (
    <Outcome title={translate('cart.cancel_title')} message={translate('cart.cancel_message')} actions={[{ to: '/checkout', label: translate('cart.back_to_checkout') }]} />
  );
}
