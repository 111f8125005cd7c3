import { Box } from '@mui/material';
import { AppBar, AppBarClasses, TitlePortal, type AppBarProps } from 'react-admin';
import { Brand } from './Brand';
import { GlobalSearchBox } from './GlobalSearchBox';
import { ShellUserMenu } from './ShellUserMenu';
import { CurrencyChooser } from '../currency/CurrencyChooser';
import { CartBadge } from '../cart';
import { LanguageSwitch } from './LanguageSwitch';

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
      <TitlePortal />
      <CurrencyChooser />
      <CartBadge />
      <GlobalSearchBox />
    </AppBar>
  );
}

/**
 * The same top bar on the sign-in, register and reset pages: no sidebar, so no menu icon, and no
 * loading indicator (the forms show their own progress); the language switch stands in for the
 * toolbar.
 */
export function PublicTopBar() {
  return (
    <AppBar
      alwaysOn
      color="primary"
      toolbar={null}
      userMenu={userMenu}
      sx={{ [`& .${AppBarClasses.menuButton}`]: { display: 'none' }, [`& .${AppBarClasses.toolbar}`]: { px: 2 } }}
    >
      <Brand />
      <Box sx={{ flex: 1 }} />
      <LanguageSwitch />
    </AppBar>
  );
}
