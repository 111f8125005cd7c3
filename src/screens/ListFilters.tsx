/**
 * The declared filters of a list (react-admin's `<List filters>`): one input per filter, always shown,
 * in react-admin's FilterForm, so the chosen values join the list's filter beside the search text.
 */
import type { ComponentProps, ComponentType } from 'react';
import { Box } from '@mui/material';
import { FilterForm, SelectInput, type FilterLiveFormProps } from 'react-admin';
import type { ListFilter } from './types';

/**
 * react-admin's FilterForm hands its other props to the FilterLiveForm it draws (ra-ui-materialui's
 * FilterForm.js), `debounce` among them, though its type does not list them.
 */
const LiveFilterForm = FilterForm as ComponentType<ComponentProps<typeof FilterForm> & Pick<FilterLiveFormProps, 'debounce'>>;

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
      {/* A choice applies at once. react-admin waits 500 ms for typing to settle, which a choice does not
          need; and a search cleared just as the waited choice applied could set the old status back (the
          search box sends the whole filter as it last drew it), the input showing the new one. */}
      <LiveFilterForm debounce={false} filters={filters.map((filter) => filterInput(name, filter))} />
    </Box>
  );
}
