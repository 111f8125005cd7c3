import { AppBar, LoadingIndicator, TitlePortal, type AppBarProps } from 'react-admin';
import { Brand } from './Brand';
import { GlobalSearchBox } from './GlobalSearchBox';
import { LanguageSwitch } from './LanguageSwitch';
import { ShellUserMenu } from './ShellUserMenu';
import { BarThemeSwitch } from './ThemeSwitch';
import { CurrencyChooser } from '../currency/CurrencyChooser';
import { CartBadge } from '../cart';
import { HideOnScroll } from './HideOnScroll';

const userMenu = <ShellUserMenu />;
const titleSx = { '& .RaConfigurable-root': { display: 'inline' } };
/**
 * react-admin's toolbar with the console's language switch, whose menu is drawn only when opened;
 * on a phone the light/dark switch is in the user menu instead.
 */
const toolbar = (
  <>
    <LanguageSwitch />
    <BarThemeSwitch />
    <LoadingIndicator />
  </>
);

/**
 * The top bar of signed-in screens (SPEC §2.5): menu icon (opens the sidebar on small screens),
 * logo, the page title slot, the currency chooser, the cart, the search box, then the toolbar (the
 * language switch, as soon as there are two languages, the light/dark switch and the loading
 * indicator) and the user menu. It slides away while the page is scrolled down (HideOnScroll). On a
 * phone the search box is a search button and the light/dark switch is in the user menu.
 */
export function TopBar(props: AppBarProps) {
  return (
    <AppBar {...props} container={HideOnScroll} color="primary" toolbar={toolbar} userMenu={userMenu}>
      <Brand compact />
      {/* A span, not an h6: the page title is the screen's own h1, and an empty h6 before it skips levels.
          Its content drawn inline, so that a title too long for a phone's bar ends in an ellipsis. */}
      <TitlePortal component="span" sx={titleSx} />
      <CurrencyChooser />
      <CartBadge />
      <GlobalSearchBox />
    </AppBar>
  );
}
