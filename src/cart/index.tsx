/** The console's one cart (SPEC §3.21, §4.9) and the top bar's cart badge. */
import { useEffect, useSyncExternalStore } from 'react';
import { Badge, IconButton, Tooltip } from '@mui/material';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import { useRedirect, useTranslate } from 'react-admin';
import { CART_KEY, createCartStore, type Cart, type CartAction } from './store';

export * from './store';

export const cartStore = createCartStore(typeof window === 'undefined' ? undefined : window.localStorage);

export function useCart(): [Cart, (action: CartAction) => void] {
  const cart = useSyncExternalStore(cartStore.subscribe, cartStore.get, cartStore.get);
  useEffect(() => {
    const onStorage = (e: StorageEvent) => e.key === CART_KEY && cartStore.reload();
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  return [cart, cartStore.dispatch];
}

/** The top bar's cart: the number of items, a click away from checkout. */
export function CartBadge() {
  const translate = useTranslate();
  const redirect = useRedirect();
  const [cart] = useCart();
  const label = translate('cart.badge', { count: cart.total_items });
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" aria-label={label} onClick={() => redirect('/checkout')}>
        <Badge badgeContent={cart.total_items} color="secondary" max={99}>
          <ShoppingCartIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
