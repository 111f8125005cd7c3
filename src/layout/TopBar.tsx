import { AppBar, TitlePortal, type AppBarProps } from 'react-admin';
import { Brand } from './Brand';
import { GlobalSearchBox } from './GlobalSearchBox';
import { ShellUserMenu } from './ShellUserMenu';
import { CurrencyChooser } from '../currency/CurrencyChooser';
import { CartBadge } from '../cart';

const userMenu = <ShellUserMenu />;

/**
 * The top bar of signed-in screens (SPEC §2.5): menu icon (opens the sidebar on small screens),
 * logo, the page title slot, the currency chooser, the cart, the search box, then react-admin's own
 * toolbar (the language switch, as soon as there are two languages, and the loading indicator) and
 * the user menu.
 */
export function TopBar(props: AppBarProps) {
  return (
    <AppBar {...props} color="primary" userMenu={userMenu}>
      <Brand />
      {/* A span, not an h6: the page title is the screen's own h1, and an empty h6 before it skips levels. */}
      <TitlePortal component="span" />
      <CurrencyChooser />
      <CartBadge />
      <GlobalSearchBox />
    </AppBar>
  );
}
