import { AppBar, LoadingIndicator, TitlePortal, ToggleThemeButton, type AppBarProps } from 'react-admin';
import { Brand } from './Brand';
import { GlobalSearchBox } from './GlobalSearchBox';
import { LanguageSwitch } from './LanguageSwitch';
import { ShellUserMenu } from './ShellUserMenu';
import { CurrencyChooser } from '../currency/CurrencyChooser';
import { CartBadge } from '../cart';
import { HideOnScroll } from './HideOnScroll';

const userMenu = <ShellUserMenu />;
const titleSx = { '& .RaConfigurable-root': { display: 'inline' } };
/** react-admin's toolbar with the console's language switch, whose menu is drawn only when opened. */
const toolbar = (
  <>
    <LanguageSwitch />
    <ToggleThemeButton />
    <LoadingIndicator />
  </>
);

/**
 * The top bar of signed-in screens (SPEC §2.5): menu icon (opens the sidebar on small screens),
 * logo, the page title slot, the currency chooser, the cart, the search box, then the toolbar (the
 * language switch, as soon as there are two languages, the light/dark switch and the loading
 * indicator) and the user menu. It slides away while the page is scrolled down (HideOnScroll).
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
