/**
 * The generic management screen (SPEC §2.9), rendered for every declared resource: header, search,
 * Explore / Close with the count badge, the editing panel, the table and the pager. The panel
 * follows the URL (`/shops/create`, `/shops/12`) so a record can be linked.
 */
import { Button, Stack } from '@mui/material';
import { ListBase, Title, useParams, useRedirect, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../resources/types';
import { EditorPanel } from './EditorPanel';
import { CountBadge, ListTable, Pager, ScreenHeader, SearchBox } from './ListParts';

export interface ScreenProps {
  declaration: ResourceDeclaration;
  /** The seller variant ('My Shops'): its own route, scoped to the user's records. */
  seller: boolean;
}

export function ManagementScreen({ declaration, seller }: ScreenProps) {
  const translate = useTranslate();
  const redirect = useRedirect();
  const resource = seller && declaration.seller ? declaration.seller : declaration.name;
  const rest = useParams()['*'] ?? '';
  const open = rest !== '';
  const id = open && rest !== 'create' ? rest.split('/')[0] : undefined;
  return (
    <ListBase
      resource={resource}
      perPage={15}
      sort={{ field: 'id', order: 'DESC' }}
      filter={declaration.filter}
      disableSyncWithLocation
    >
      <Title title={translate(`menu.${resource.toLowerCase()}`)} />
      <Stack spacing={2} sx={{ p: 2 }}>
        <ScreenHeader seller={seller} />
        <Stack direction="row" spacing={2} alignItems="center" flexWrap="wrap" useFlexGap>
          <SearchBox />
          <Button variant="contained" onClick={() => redirect(open ? `/${resource}` : `/${resource}/create`)}>
            {translate(open ? 'management.close' : 'management.explore')}
          </Button>
          <CountBadge />
        </Stack>
        {open && <EditorPanel key={id ?? 'new'} declaration={declaration} resource={resource} id={id} />}
        <ListTable declaration={declaration} resource={resource} />
        <Pager />
      </Stack>
    </ListBase>
  );
}

export default ManagementScreen;
