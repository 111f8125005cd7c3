/** The user menu's first entry: the signed-in user's name and role, opening their account page. */
import { forwardRef } from 'react';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { LinkBase, useGetIdentity, useTranslate, useUserMenu } from 'react-admin';
import { roleOf } from '../../contract';

export const AccountMenuItem = forwardRef<HTMLLIElement>(function AccountMenuItem(_props, ref) {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  const { identity } = useGetIdentity();
  const role = translate(`resources.users.role.${roleOf(identity?.abilities)}`);
  return (
    <MenuItem ref={ref} component={LinkBase} to="/account" onClick={() => userMenu?.onClose()}>
      <ListItemIcon>
        <AccountCircleIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText
        primary={identity?.fullName ?? ''}
        secondary={`${role} · ${translate('resources.users.user_menu.account')}`}
      />
    </MenuItem>
  );
});
