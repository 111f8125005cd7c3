/**
 * The generic management screen (SPEC §2.9), rendered for every list resource: header, search,
 * Explore / Close with the count badge, the column chooser and CSV export, the editing panel, the
 * table with its bulk status actions, and the pager. The panel follows the URL (`/shops/create`,
 * `/shops/12`, `/shops/12/control`) so a record can be linked. A resource whose screen is a page
 * (live chat) is rendered by its own component instead.
 */
import { Button, Stack } from '@mui/material';
import { CanAccess, ColumnsButton, ListBase, Title, useLocation, useParams, useRedirect, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { EntityContract } from '../../contract';
import type { ListScreen, ScreenResource } from './types';
import { EditorPanel } from './EditorPanel';
import { ListFilters } from './ListFilters';
import { CountBadge, ExportCsvButton, ListTable, Pager, PrefetchNextPage, Reserved, ScreenHeader, SearchBox } from './ListParts';
import { CellStyles } from './cells';
import { LIST_PARAMS } from './listQuery';
import { Loaded } from './loaded';
import { searchText } from './rules';

export interface ScreenProps {
  def: ScreenResource;
  entity: EntityContract;
  /** The console resource: the admin screen's or the seller variant's route segment. */
  resource: string;
  /** The seller variant ('My Shops'): scoped to the user's records. */
  seller: boolean;
  /** The buyer variant ('My purchases'): the records naming the user as buyer, read only. */
  buyer?: boolean;
}

function ListManagement({ def, entity, resource, seller, buyer = false, screen }: ScreenProps & { screen: ListScreen }) {
  const translate = useTranslate();
  const redirect = useRedirect();
  const [id, tab = ''] = (useParams()['*'] ?? '').split('/');
  const open = id !== undefined && id !== '';
  const recordId = open && id !== 'create' ? id : undefined;
  const storeKey = `${resource}.table`;
  const token = seller ? entity.owner!.access : buyer ? def.buyer!.token : entity.access;
  // A link may open the screen with a search applied ('show all' of the global search: `?q=`).
  const q = searchText(new URLSearchParams(useLocation().search).get('q') ?? '');
  // A read-only list (order statuses, applicants) has nothing to explore: a clicked row opens its details.
  const editable = Boolean(screen.form || screen.control || screen.tabs?.length);
  // A screen without a sidebar entry of its own (/subcategory) is named by its resource.
  const title = translate(def.menu || seller || buyer ? `menu.${token}` : `resources.${def.name}.title`);
  const exportButton = <ExportCsvButton def={def} screen={screen} />;
  return (
    <ListBase
      resource={resource}
      // The route's guard (RouteGuard) has asked for the access already, once for every route.
      disableAuthentication
      perPage={LIST_PARAMS.perPage}
      sort={LIST_PARAMS.sort}
      filter={screen.filter}
      filterDefaultValues={q ? { q } : undefined}
      disableSyncWithLocation
    >
      <Title title={title} />
      <CellStyles />
      <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, minWidth: 0 }}>
        <ScreenHeader seller={seller} title={buyer ? title : undefined} />
        <Stack direction="row" spacing={2} alignItems="center" flexWrap="wrap" useFlexGap>
          <SearchBox />
          {screen.filters?.length ? <ListFilters name={def.name} filters={screen.filters} /> : null}
          {(editable || recordId) && (
            <Button variant="contained" onClick={() => redirect(open ? `/${resource}` : `/${resource}/create`)}>
              {translate(open ? 'management.close' : 'management.explore')}
            </Button>
          )}
          {/* The parts shown once the access is known keep their room while it is asked (Reserved). */}
          {screen.links?.map((link) => {
            const button = (
              <Button variant="outlined" component={Link} to={link.path}>
                {translate(link.label)}
              </Button>
            );
            return (
              <CanAccess key={link.path} resource={link.path.slice(1)} action="list" loading={<Reserved>{button}</Reserved>}>
                {button}
              </CanAccess>
            );
          })}
          <CountBadge />
          <ColumnsButton storeKey={storeKey} />
          <CanAccess resource={resource} action="export" loading={<Reserved>{exportButton}</Reserved>}>
            {exportButton}
          </CanAccess>
        </Stack>
        {(editable ? open : recordId !== undefined) && (
          <EditorPanel key={recordId ?? 'new'} def={def} screen={screen} entity={entity} resource={resource} id={recordId} tab={tab} />
        )}
        <ListTable def={def} screen={screen} entity={entity} resource={resource} storeKey={storeKey} selectedId={recordId}>
          <Pager />
        </ListTable>
        <PrefetchNextPage filter={screen.filter} />
      </Stack>
    </ListBase>
  );
}

export function ManagementScreen(props: ScreenProps) {
  const screen = props.def.screen;
  if (!screen) return null;
  if (screen.kind === 'page') return <Loaded loader={screen.component} props={{}} />;
  // The buyer variant only reads: no form, no Control, no extra tab.
  const shown = props.buyer ? { ...screen, form: undefined, control: undefined, tabs: undefined } : screen;
  return <ListManagement {...props} screen={shown} />;
}

export default ManagementScreen;
