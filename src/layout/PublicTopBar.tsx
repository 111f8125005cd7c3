import { Box } from '@mui/material';
import { AppBar, AppBarClasses } from 'react-admin';
import { Brand } from './Brand';
import { LanguageSwitch } from './LanguageSwitch';
import { ShellUserMenu } from './ShellUserMenu';

const userMenu = <ShellUserMenu />;

/**
 * The top bar of the sign-in, register and reset pages (SPEC §2.6): no sidebar, so no menu icon,
 * and no loading indicator (the forms show their own progress); the language switch stands in for
 * the toolbar. Kept apart from the signed-in top bar so these pages load none of its widgets
 * (search, currency, cart).
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
