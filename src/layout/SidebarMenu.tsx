import type { ReactElement } from 'react';
import { Box } from '@mui/material';
import { Menu, useGetIdentity, useTranslate, type MenuProps } from 'react-admin';
import { menuFor, type AccessProfile } from '../../authProvider';
import { roleOf, type AccessEntry } from '../../contract';
import { en } from '../../i18n/en';
import { registry } from '../../resources';
import { Loaded } from '../screens/loaded';
import { DEFAULT_MENU_ICON, MENU_ICONS } from './menuIcons';

/**
 * i18n key of a sidebar label: admins read the admin list's words ('My Shops'); everyone else the
 * seller list's ('Shops' for /my-shops) where the seller list words it differently (SPEC §2.6).
 */
export function menuLabelKey(token: string, admin: boolean): string {
  if (!admin && token in en.menu.seller) return `menu.seller.${token}`;
  return `menu.${token}`;
}

/** A resource's live count on its entry's icon (menuBadge), when it declares one. */
function withBadge(token: string, icon: ReactElement): ReactElement {
  const badge = registry.resources.find((def) => def.menu?.token === token)?.menuBadge;
  return badge ? <Loaded loader={badge} props={{ children: icon }} /> : icon;
}

/** The sidebar (SPEC §2.6): the entries the signed-in user may see, in order, current one highlighted. */
export function SidebarMenu(props: MenuProps) {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const entries: AccessEntry[] = identity ? menuFor(identity as AccessProfile) : [];
  const admin = roleOf(identity?.abilities) === 'admin';
  return (
    <Box component="nav" aria-label={translate('menu.label')}>
      <Menu {...props}>
        {entries.map((entry) => (
          <Menu.Item
            key={entry.token}
            to={entry.path}
            primaryText={menuLabelKey(entry.token, admin)}
            leftIcon={withBadge(entry.token, (entry.icon && MENU_ICONS[entry.icon]) || DEFAULT_MENU_ICON)}
          />
        ))}
      </Menu>
    </Box>
  );
}
