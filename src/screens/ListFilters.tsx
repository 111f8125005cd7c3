/**
 * The declared filters of a list (react-admin's `<List filters>`): one input per filter, always shown,
 * in react-admin's FilterForm, so the chosen values join the list's filter beside the search text.
 */
import { Box } from '@mui/material';
import { FilterForm, SelectInput } from 'react-admin';
import type { ListFilter } from './types';

function filterInput(name: string, filter: ListFilter) {
  const label = `resources.${name}.filters.${filter.source}`;
  switch (filter.kind) {
    case 'select':
      return (
        <SelectInput
          key={filter.source}
          source={filter.source}
          label={label}
          alwaysOn
          emptyText="management.filter_all"
          choices={filter.choices.map((value) => ({ id: value, name: `resources.${name}.choices.${value}` }))}
          sx={{ minWidth: 160 }}
        />
      );
  }
}

export function ListFilters({ name, filters }: { name: string; filters: readonly ListFilter[] }) {
  // Beside the search box rather than on a line of its own (react-admin's form takes the row's width).
  return (
    <Box sx={{ width: { xs: '100%', sm: 'auto' }, '& > form': { flex: '0 0 auto', minHeight: 0, p: 0 }, '& .MuiFormControl-root': { my: 0 } }}>
      <FilterForm filters={filters.map((filter) => filterInput(name, filter))} />
    </Box>
  );
}
