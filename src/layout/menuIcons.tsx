import type { ReactElement } from 'react';
import DashboardIcon from '@mui/icons-material/Dashboard';
import StorefrontIcon from '@mui/icons-material/Storefront';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import ShoppingBagIcon from '@mui/icons-material/ShoppingBag';
import StoreIcon from '@mui/icons-material/Store';
import InventoryIcon from '@mui/icons-material/Inventory';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import CardMembershipIcon from '@mui/icons-material/CardMembership';
import CategoryIcon from '@mui/icons-material/Category';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import WorkIcon from '@mui/icons-material/Work';
import PeopleAltIcon from '@mui/icons-material/PeopleAlt';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import EmailIcon from '@mui/icons-material/Email';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import CurrencyExchangeIcon from '@mui/icons-material/CurrencyExchange';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import StraightenIcon from '@mui/icons-material/Straighten';
import SocialDistanceIcon from '@mui/icons-material/SocialDistance';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import ForumIcon from '@mui/icons-material/Forum';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import HistoryIcon from '@mui/icons-material/History';
import PaymentsIcon from '@mui/icons-material/Payments';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';

/** The icon set resource files name their sidebar icon from (`menu.icon`), by MUI icon name. */
export const MENU_ICONS: Readonly<Record<string, ReactElement>> = {
  Dashboard: <DashboardIcon />,
  Storefront: <StorefrontIcon />,
  Inventory2: <Inventory2Icon />,
  ShoppingBag: <ShoppingBagIcon />,
  Store: <StoreIcon />,
  Inventory: <InventoryIcon />,
  ReceiptLong: <ReceiptLongIcon />,
  WorkspacePremium: <WorkspacePremiumIcon />,
  CardMembership: <CardMembershipIcon />,
  Category: <CategoryIcon />,
  SupportAgent: <SupportAgentIcon />,
  Work: <WorkIcon />,
  PeopleAlt: <PeopleAltIcon />,
  ManageAccounts: <ManageAccountsIcon />,
  LocalOffer: <LocalOfferIcon />,
  Email: <EmailIcon />,
  FactCheck: <FactCheckIcon />,
  CurrencyExchange: <CurrencyExchangeIcon />,
  LocalShipping: <LocalShippingIcon />,
  Straighten: <StraightenIcon />,
  SocialDistance: <SocialDistanceIcon />,
  PersonRemove: <PersonRemoveIcon />,
  Forum: <ForumIcon />,
  History: <HistoryIcon />,
  Payments: <PaymentsIcon />,
  AccountBalanceWallet: <AccountBalanceWalletIcon />,
};

export const DEFAULT_MENU_ICON = <ChevronRightIcon />;
