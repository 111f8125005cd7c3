/**
 * The global search (named route /search?q=…): each screen the user may open is searched with
 * its own keyIndex and targets (POST /search-dive, through the dataProvider, so sellers get their
 * own records), a few rows per group, each linking to the record's screen URL, and 'show all'
 * opening the screen with the search applied. On a phone, whose top bar has no room for the search
 * box, the page draws the box itself, above the results (focused when there is nothing to show yet).
 */
import { Alert, CircularProgress, Link as MuiLink, List, ListItem, ListItemButton, ListItemText, Paper, Stack, Typography } from '@mui/material';
import { useQueries } from '@tanstack/react-query';
import { LinkBase, Loading, Title, useDataProvider, useGetIdentity, useLocation, useTranslate, type RaRecord } from 'react-admin';
import { roleOf } from '../../contract';
import { registry } from '../../resources';
import { SearchForm } from '../layout/GlobalSearchBox';
import { menuLabelKey } from '../layout/SidebarMenu';
import { usePhone } from '../layout/usePhone';
import { cleanSearch, searchText } from '../screens/rules';
import { inLanguage, messageOf } from './messages';
import { searchTargets, type SearchTarget } from './searchTargets';

/** Rows shown per group. */
const FEW = 5;
const T = 'resources.users.search';

/** How a found record is named: its first naming field, then its id. */
function recordName(record: RaRecord): string {
  for (const key of ['name', 'title', 'subject', 'code', 'tracking_number', 'email', 'user_name', 'customer', 'location_A']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return `${value.trim()} (#${record.id})`;
  }
  return `#${record.id}`;
}

type Found = { data: RaRecord[]; total?: number };

function Group({ target, q, admin, found, error }: { target: SearchTarget; q: string; admin: boolean; found?: Found; error: unknown }) {
  const translate = useTranslate();
  const label = translate(menuLabelKey(target.token, admin));
  return (
    <Paper variant="outlined" component="section" aria-label={label} sx={{ p: 2 }}>
      <Stack direction="row" spacing={2} alignItems="baseline" justifyContent="space-between">
        <Typography variant="h6" component="h2">
          {label}
        </Typography>
        {found && (
          <MuiLink component={LinkBase} to={`/${target.resource}?q=${encodeURIComponent(q)}`}>
            {translate(`${T}.show_all`, { count: found.total ?? found.data.length })}
          </MuiLink>
        )}
      </Stack>
      {found ? (
        <List dense>
          {found.data.map((record) => (
            // Each link in its own list item: a list holds items only (a link straight in it is not read as one of the list's).
            <ListItem key={record.id} disablePadding>
              <ListItemButton component={LinkBase} to={`/${target.resource}/${record.id}`}>
                <ListItemText primary={recordName(record)} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      ) : (
        <Alert severity="warning">{translate(`${T}.failed`, { error: inLanguage(translate, messageOf(error, '')) })}</Alert>
      )}
    </Paper>
  );
}

/** Every group searched at once; groups with nothing found are left out. */
function Results({ targets, q, admin }: { targets: SearchTarget[]; q: string; admin: boolean }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const answers = useQueries({
    queries: targets.map((target) => ({
      queryKey: ['global-search', target.resource, q],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        dataProvider.getList(target.resource, { filter: { q }, pagination: { page: 1, perPage: FEW }, sort: { field: 'id', order: 'DESC' }, signal }),
      retry: false,
    })),
  });
  const shown = targets
    .map((target, i) => ({ target, answer: answers[i] }))
    .filter(({ answer }) => answer.error || (answer.data && answer.data.data.length > 0));
  const pending = answers.some((a) => a.isPending);
  return (
    <Stack spacing={2}>
      {shown.map(({ target, answer }) => (
        <Group key={target.resource} target={target} q={q} admin={admin} found={answer.data} error={answer.error} />
      ))}
      {pending ? <CircularProgress size={24} aria-label={translate('management.loading')} /> : !shown.length && <Typography>{translate(`${T}.none`)}</Typography>}
    </Stack>
  );
}

export default function SearchPage() {
  const translate = useTranslate();
  const { identity, isPending } = useGetIdentity();
  const raw = new URLSearchParams(useLocation().search).get('q') ?? '';
  const q = searchText(raw);
  const phone = usePhone();
  if (isPending) return <Loading />;
  const targets = identity ? searchTargets(identity, registry) : [];
  const admin = roleOf(identity?.abilities) === 'admin';
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <Title title={translate(`${T}.title`)} />
      <Typography variant="h5" component="h1">
        {q ? translate(`${T}.results_for`, { q }) : translate(`${T}.title`)}
      </Typography>
      {phone && targets.length > 0 && (
        <SearchForm key={`form:${raw}`} initial={cleanSearch(raw)} autoFocus={!q} sx={{ border: 1, borderColor: 'divider', py: 0.5 }} />
      )}
      {!targets.length ? (
        <Typography>{translate(`${T}.nothing_searchable`)}</Typography>
      ) : !q ? (
        <Typography>{translate('management.search_too_short')}</Typography>
      ) : (
        <Results key={`results:${q}`} targets={targets} q={q} admin={admin} />
      )}
    </Stack>
  );
}
