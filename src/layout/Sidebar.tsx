import { useEffect, useState } from 'react';
import { Drawer, type Theme } from '@mui/material';
import { styled } from '@mui/material/styles';
import { CLOSED_DRAWER_WIDTH, DRAWER_WIDTH, SidebarClasses, useLocale, useSidebarState, type SidebarProps } from 'react-admin';
import { useScrolledDown } from './HideOnScroll';
import { usePhone } from './usePhone';

const OPEN = 'RaSidebar-open';
const CLOSED = 'RaSidebar-closed';

/**
 * react-admin's Sidebar (a drawer over the page on a phone, docked beside it from `sm` up, moving up
 * with the top bar as it hides on scroll), with the top bar's scroll rule read as the bar reads it
 * (useScrolledDown). react-admin's own calls Material UI's useScrollTrigger, which reads the scroll
 * position as it mounts: in the middle of drawing the signed-in layout, where that read makes the
 * browser lay the whole page out there and then. Same classes (RaSidebar-*) and styles; `closedSize`
 * and `size` are kept from the drawer and not used, as react-admin's Sidebar does.
 */
export function Sidebar({ appBarAlwaysOn, children, closedSize: _closed, size: _size, ...rest }: SidebarProps) {
  const phone = usePhone();
  const [open, setOpen] = useSidebarState();
  useLocale(); // drawn again when the language changes, as react-admin's is
  const scrolledDown = useScrolledDown();
  const toggle = () => setOpen(!open);
  // A window narrowed to a phone's width (a folded phone, a split screen, a resized window): the
  // docked sidebar becomes the drawer over the page, and the drawer starts closed. react-admin's
  // open state follows the width one drawing late (its store's default), so without this its drawer
  // opened and closed again before its opening had run: a Material UI modal that never finished
  // closing, an invisible backdrop that took every tap and the page hidden from screen readers.
  // Until the closing has reached the store, the drawer is drawn closed.
  const [wasPhone, setWasPhone] = useState(phone);
  const [folding, setFolding] = useState(false);
  if (wasPhone !== phone) {
    setWasPhone(phone);
    setFolding(phone && open);
  } else if (folding && !open) {
    setFolding(false);
  }
  useEffect(() => {
    if (folding) setOpen(false);
  }, [folding, setOpen]);
  if (phone) {
    return (
      <SidebarDrawer variant="temporary" open={open && !folding} onClose={toggle} classes={SidebarClasses} {...rest}>
        {children}
      </SidebarDrawer>
    );
  }
  const className = [scrolledDown && !appBarAlwaysOn ? SidebarClasses.appBarCollapsed : '', open ? OPEN : CLOSED].filter(Boolean).join(' ');
  return (
    <SidebarDrawer variant="permanent" open={open} onClose={toggle} classes={SidebarClasses} className={className} {...rest}>
      <div className={SidebarClasses.fixed}>{children}</div>
    </SidebarDrawer>
  );
}

/** react-admin's sidebar drawer styles, under its name so that a theme's RaSidebar overrides apply. */
const SidebarDrawer = styled(Drawer, {
  name: 'RaSidebar',
  slot: 'Root',
  overridesResolver: (_props, styles) => styles.root,
  shouldForwardProp: () => true,
})(({ open, theme }) => {
  const sizes = (theme as Theme & { sidebar?: { width?: number; closedWidth?: number } }).sidebar;
  return {
    height: 'calc(100vh - 3em)',
    marginTop: 0,
    transition: theme.transitions.create('margin', { easing: theme.transitions.easing.easeOut, duration: theme.transitions.duration.enteringScreen }),
    // Docked only (a phone's drawer never collapses): the layout's frame keeps its margin, and the
    // sidebar makes up for the hidden bar instead.
    [`&.${SidebarClasses.appBarCollapsed}`]: {
      marginTop: theme.spacing(-6),
      transition: theme.transitions.create('margin', { easing: theme.transitions.easing.sharp, duration: theme.transitions.duration.leavingScreen }),
    },
    [`& .${SidebarClasses.fixed}`]: {
      position: 'fixed',
      height: 'calc(100vh - 3em)',
      overflowX: 'hidden',
      scrollbarWidth: 'none',
      '&::-webkit-scrollbar': { display: 'none' },
    },
    '& .MuiPaper-root': {
      position: 'relative',
      width: open ? (sizes?.width ?? DRAWER_WIDTH) : (sizes?.closedWidth ?? CLOSED_DRAWER_WIDTH),
      transition: theme.transitions.create('width', { easing: theme.transitions.easing.sharp, duration: theme.transitions.duration.leavingScreen }),
      backgroundColor: 'transparent',
      borderRight: 'none',
      [theme.breakpoints.only('xs')]: {
        marginTop: 0,
        height: '100vh',
        position: 'inherit',
        backgroundColor: (theme.vars || theme).palette.background.default,
      },
      [theme.breakpoints.up('md')]: { border: 'none' },
      zIndex: 'inherit',
    },
  };
});
