/**
 * 'Add to cart' for a product (SPEC §3.21): any signed-in user, from the catalogue or a product's image
 * dialog; not on the user's own products (the server refuses an order from one's own shop).
 */
import { Box, Button } from '@mui/material';
import AddShoppingCartIcon from '@mui/icons-material/AddShoppingCart';
import { useGetIdentity, useNotify, useTranslate } from 'react-admin';
import { useCart } from '../../src/cart';
import { useRates } from '../../src/currency';
import { cartItemOf } from './cartItem';

/** `compact`: on a phone, the icon alone (the words stay the button's name). */
export function AddToCartButton({ product, size = 'small', compact = false }: { product: Record<string, unknown>; size?: 'small' | 'medium'; compact?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const rates = useRates();
  const [, dispatch] = useCart();
  const { identity } = useGetIdentity();
  const owner = (product.shop as { owner_id?: unknown } | null | undefined)?.owner_id;
  const own = product.own === true || (owner !== undefined && owner !== null && identity !== undefined && String(owner) === String(identity.id));
  if (own) return null;
  const outOfStock = product.in_stock !== null && product.in_stock !== undefined && Number(product.in_stock) <= 0;
  const soldHere = product.state === undefined || product.state === 'active';
  const label = translate(outOfStock ? 'cart.out_of_stock' : 'cart.add');
  return (
    <Button
      size={size}
      variant="outlined"
      startIcon={<AddShoppingCartIcon />}
      aria-label={compact ? label : undefined}
      sx={compact ? (theme) => ({ [theme.breakpoints.down('sm')]: { minWidth: 0, '& .MuiButton-startIcon': { m: 0 } } }) : undefined}
      disabled={outOfStock || !soldHere}
      onClick={(e) => {
        e.stopPropagation();
        dispatch({ type: 'add', item: cartItemOf(product, rates) });
        notify(translate('cart.added', { name: String(product.name ?? '') }), { type: 'success' });
      }}
    >
      {compact ? <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>{label}</Box> : label}
    </Button>
  );
}

export default AddToCartButton;
