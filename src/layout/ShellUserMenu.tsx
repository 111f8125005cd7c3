import { forwardRef } from 'react';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import LoginIcon from '@mui/icons-material/Login';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { LinkBase, UserMenu, useLogout, useTranslate, useUserMenu } from 'react-admin';
import { getSession } from '../../authProvider/session';
import { AccountMenuItem } from './AccountMenuItem';
import { ThemeMenuItem } from './ThemeSwitch';
import { usePhone } from './usePhone';

/** 'logout': removes the stored session and goes to / (SPEC §2.5). */
export const LogoutMenuItem = forwardRef<HTMLLIElement>(function LogoutMenuItem(_props, ref) {
  const translate = useTranslate();
  const logout = useLogout();
  const userMenu = useUserMenu();
  return (
    <MenuItem
      ref={ref}
      onClick={() => {
        userMenu?.onClose();
        void logout({}, '/', false);
      }}
    >
      <ListItemIcon>
        <LogoutIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('shell.logout')}</ListItemText>
    </MenuItem>
  );
});

function LinkMenuItem({ to, label, icon }: { to: string; label: string; icon: React.ReactNode }) {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  return (
    <MenuItem component={LinkBase} to={to} onClick={() => userMenu?.onClose()}>
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{translate(label)}</ListItemText>
    </MenuItem>
  );
}

/**
 * The top bar's user menu (SPEC §2.5): 'logout' when a stored session exists (after the account
 * and, on a phone, the light/dark switch), otherwise the Login and Register links.
 */
export function ShellUserMenu() {
  const signedIn = getSession() !== null;
  const phone = usePhone();
  return (
    <UserMenu label="shell.user_menu">
      {signedIn ? (
        [<AccountMenuItem key="account" />, ...(phone ? [<ThemeMenuItem key="theme" />] : []), <LogoutMenuItem key="logout" />]
      ) : (
        [
          <LinkMenuItem key="login" to="/login" label="shell.login" icon={<LoginIcon fontSize="small" />} />,
          <LinkMenuItem
            key="register"
            to="/register"
            label="shell.register"
            icon={<PersonAddIcon fontSize="small" />}
          />,
        ]
      )}
    </UserMenu>
  );
}
