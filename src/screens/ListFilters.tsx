/**
 * The declared filters of a list (react-admin's `<List filters>`): one input per filter, always shown
 * beside the search box, its choice joining the list's filter at once (the search text kept).
 *
 * A Material UI select bound to the list's filter (`useListFilterContext`), as the search box is,
 * rather than react-admin's FilterForm: that form keeps its own react-hook-form copy of the filter and
 * draws itself three times as a list opens (207, then 78 and 44 components on Products, on a phone's
 * slower CPU), for one select whose value the list already holds.
 */
import { Box, MenuItem, TextField } from '@mui/material';
import { useListFilterContext, useTranslate } from 'react-admin';
import type { ListFilter } from './types';

function FilterSelect({ name, filter }: { name: string; filter: Extract<ListFilter, { kind: 'select' }> }) {
  const translate = useTranslate();
  const { filterValues, displayedFilters, setFilters } = useListFilterContext();
  const value: unknown = filterValues[filter.source];
  const choose = (chosen: string | number) => {
    const { [filter.source]: _previous, ...rest } = filterValues;
    // The empty choice ('All') removes the filter, as react-admin's form drops an empty value.
    setFilters(chosen === '' ? rest : { ...rest, [filter.source]: chosen }, displayedFilters);
  };
  return (
    <TextField
      select
      label={translate(`resources.${name}.filters.${filter.source}`)}
      value={filter.choices.includes(value as string | number) ? value : ''}
      // A Material UI select hands back the chosen item's own value, a number as a number.
      onChange={(event) => choose(event.target.value as string | number)}
      sx={{ minWidth: 160, width: { xs: '100%', sm: 'auto' } }}
    >
      <MenuItem value="">{translate('management.filter_all')}</MenuItem>
      {filter.choices.map((choice) => (
        <MenuItem key={choice} value={choice}>
          {translate(`resources.${name}.choices.${choice}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function ListFilters({ name, filters }: { name: string; filters: readonly ListFilter[] }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, width: { xs: '100%', sm: 'auto' } }}>
      {filters.map((filter) => {
        switch (filter.kind) {
          case 'select':
            return <FilterSelect key={filter.source} name={name} filter={filter} />;
          default: {
            const never: never = filter.kind;
            return never;
          }
        }
      })}
    </Box>
  );
}
