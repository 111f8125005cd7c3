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

/** Sidebar icon of each access token (contract/access.ts). */
export const MENU_ICONS: Readonly<Record<string, ReactElement>> = {
  dashboard: <DashboardIcon />,
  'my-shops': <StorefrontIcon />,
  'my-products': <Inventory2Icon />,
  'my-orders': <ShoppingBagIcon />,
  shops: <StoreIcon />,
  products: <InventoryIcon />,
  orders: <ReceiptLongIcon />,
  'subscription-plans': <WorkspacePremiumIcon />,
  subscriptions: <CardMembershipIcon />,
  category: <CategoryIcon />,
  support: <SupportAgentIcon />,
  'job-posts': <WorkIcon />,
  'job-applicants': <PeopleAltIcon />,
  users: <ManageAccountsIcon />,
  brands: <LocalOfferIcon />,
  'mail-templates': <EmailIcon />,
  'order-status': <FactCheckIcon />,
  'currencies-exchange': <CurrencyExchangeIcon />,
  'shipping-classes': <LocalShippingIcon />,
  'mile-prices': <StraightenIcon />,
  'custom-distances': <SocialDistanceIcon />,
  'deletion-requests': <PersonRemoveIcon />,
  'chat-logs': <ForumIcon />,
};

export const DEFAULT_MENU_ICON = <ChevronRightIcon />;
