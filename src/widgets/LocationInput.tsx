/**
 * The location picker (SPEC §2.30, §3.23, §4.11): country, state and city from the directory
 * service.
 *
 * - Choosing a country loads its states, with 'Others' first; choosing a state loads its cities,
 *   'Others' first. 'Others' turns that field into free text.
 * - Typing a country that is not in the list (instead of choosing one) puts the country in
 *   free-text mode; state and city are then free text too.
 * - Inside a react-admin form it writes `country`, `state`, `city` (names) and `country_details`,
 *   `state_details`, `city_details` (SPEC §3.23) for the levels it shows, and starts from the
 *   record's values (`address.country` or `country`, and so on). With `onPick` it writes no form
 *   field and reports every pick instead.
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useFormContext } from 'react-hook-form';
import { InputHelperText, required as requiredValidator, useInput, useNotify, useRecordContext, useTranslate } from 'react-admin';
import Autocomplete from '@mui/material/Autocomplete';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ListIcon from '@mui/icons-material/FormatListBulleted';
import { useDirectory, type DirectoryCity, type DirectoryPlace } from './directory';

export type LocationLevel = 'country' | 'state' | 'city';

/** SPEC §3.23. Coordinates are the directory's (text); free-text entries have none. */
export interface CountryDetails {
  country_code: string;
  country_name: string;
  latitude: string | null;
  longitude: string | null;
}
export interface StateDetails {
  state_code: string;
  state_name: string;
  latitude: string | null;
  longitude: string | null;
}
export interface CityDetails {
  city_code: '';
  city_name: string;
  latitude: string | null;
  longitude: string | null;
}

/** What the picker holds; a level it does not show is '' / null. */
export interface LocationPick {
  country: string;
  state: string;
  city: string;
  country_details: CountryDetails | null;
  state_details: StateDetails | null;
  city_details: CityDetails | null;
}

export interface LocationInputProps {
  /** Which fields to show, country first: ['country', 'state', 'city'] (default), ['country', 'state'], ['country']. */
  levels?: readonly LocationLevel[];
  /** Marks the country required (and, in a form, validates it). */
  required?: boolean;
  /** Report picks here instead of writing form fields (works outside a form too). */
  onPick?: (pick: LocationPick) => void;
  disabled?: boolean;
}

const ALL_LEVELS: readonly LocationLevel[] = ['country', 'state', 'city'];

interface Part {
  name: string;
  /** The directory's iso2 ('' for free text, and for cities). */
  code: string;
  /** Typed rather than chosen: the country was not in the list, or 'Others' was chosen. */
  free: boolean;
  latitude: string | null;
  longitude: string | null;
}
type Selection = Record<LocationLevel, Part>;

/** Every picker of the row shares its width equally, whichever are lists and which free text. */
const PART = { flex: { xs: 'none', sm: '1 1 0' }, minWidth: 0, width: { xs: '100%', sm: 'auto' } } as const;

const EMPTY: Part = { name: '', code: '', free: false, latitude: null, longitude: null };
const FREE: Part = { ...EMPTY, free: true };

const partOf = (place: DirectoryPlace | DirectoryCity): Part => ({
  name: place.name,
  code: 'iso2' in place ? place.iso2 : '',
  free: false,
  latitude: place.latitude,
  longitude: place.longitude,
});

const sameName = (a: string, b: string) => a.trim().localeCompare(b.trim(), undefined, { sensitivity: 'base' }) === 0;

export function detailsOf(selection: Selection, levels: readonly LocationLevel[] = ALL_LEVELS): LocationPick {
  const shown = (level: LocationLevel) => (levels.includes(level) ? selection[level] : EMPTY);
  const country = shown('country');
  const state = shown('state');
  const city = shown('city');
  return {
    country: country.name,
    state: state.name,
    city: city.name,
    country_details: country.name
      ? { country_code: country.code, country_name: country.name, latitude: country.latitude, longitude: country.longitude }
      : null,
    state_details: state.name
      ? { state_code: state.code, state_name: state.name, latitude: state.latitude, longitude: state.longitude }
      : null,
    city_details: city.name ? { city_code: '', city_name: city.name, latitude: city.latitude, longitude: city.longitude } : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Starting values from a record: `address.country` (a name or {country_name}), `country`, and the
// details objects (which may arrive as JSON text).

type Loose = Record<string, unknown>;
const isLoose = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const asObject = (value: unknown): Loose | undefined => {
  if (isLoose(value)) return value;
  if (typeof value === 'string' && value.trim().startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(value);
      return isLoose(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
};
const str = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');
const coord = (value: unknown) => (str(value) === '' ? null : str(value));

export function readLocation(record: Loose | undefined): Selection {
  const address = asObject(record?.address) ?? {};
  const part = (level: LocationLevel): Part => {
    const details = asObject(record?.[`${level}_details`]) ?? asObject(address[`${level}_details`]);
    const named = (value: unknown) => str(value) || str(asObject(value)?.[`${level}_name`]);
    const name = named(record?.[level]) || named(address[level]) || str(details?.[`${level}_name`]);
    if (!name) return EMPTY;
    const fromDetails = details && sameName(str(details[`${level}_name`]), name);
    return {
      name,
      code: fromDetails && level !== 'city' ? str(details[`${level}_code`]) : '',
      free: false,
      latitude: fromDetails ? coord(details.latitude) : null,
      longitude: fromDetails ? coord(details.longitude) : null,
    };
  };
  return { country: part('country'), state: part('state'), city: part('city') };
}

// ---------------------------------------------------------------------------------------------

interface ListState<T> {
  items: T[];
  loading: boolean;
  /** Loaded or failed for the current key. */
  settled: boolean;
}

/** One directory list, reloaded when its key changes; null loads nothing. Failures are notified. */
function useDirectoryList<T>(key: string | null, load: (key: string) => Promise<T[]>): ListState<T> {
  const notify = useNotify();
  const [result, setResult] = useState<{ key: string; items: T[] } | null>(null);
  useEffect(() => {
    if (key === null) return;
    let live = true;
    load(key).then(
      (items) => {
        if (live) setResult({ key, items });
      },
      (error: unknown) => {
        if (!live) return;
        setResult({ key, items: [] });
        const message = error instanceof Error ? error.message : String(error);
        notify(message, { type: 'error', messageArgs: { _: message } });
      },
    );
    return () => {
      live = false;
    };
  }, [key, load, notify]);
  const settled = key !== null && result?.key === key;
  return { items: settled ? result.items : [], loading: key !== null && !settled, settled };
}

interface Choice {
  name: string;
  iso2: string;
  latitude: string | null;
  longitude: string | null;
  others?: true;
}

interface LocationFieldsProps {
  levels: readonly LocationLevel[];
  initial: Selection;
  required?: boolean;
  disabled?: boolean;
  /** The country's validation message, if any. */
  countryError?: ReactNode;
  /** Called after every change with the new selection and the levels that changed. */
  onChange: (selection: Selection, changed: readonly LocationLevel[]) => void;
}

function LocationFields({ levels, initial, required, disabled, countryError, onChange }: LocationFieldsProps) {
  const translate = useTranslate();
  const directory = useDirectory();
  const [selection, setSelection] = useState<Selection>(initial);
  const [countryInput, setCountryInput] = useState(initial.country.name);
  const [focus, setFocus] = useState<LocationLevel | null>(null);
  const withState = levels.includes('state');
  const withCity = withState && levels.includes('city');
  const others: Choice = useMemo(
    () => ({ name: translate('widgets.location.others'), iso2: '', latitude: null, longitude: null, others: true }),
    [translate],
  );

  // Countries, and the record's country resolved against them by name when it came without a code.
  const loadCountries = useCallback(() => directory.countries(), [directory]);
  const countries = useDirectoryList('countries', loadCountries);
  const { country, state, city } = selection;
  const countryMatch = country.code
    ? countries.items.find((c) => c.iso2 === country.code)
    : country.name && !country.free
      ? countries.items.find((c) => sameName(c.name, country.name))
      : undefined;
  const countryCode = country.code || countryMatch?.iso2 || '';
  const countryFree = country.free || (country.name !== '' && !countryCode && countries.settled);

  const loadStates = useCallback((code: string) => directory.states(code), [directory]);
  const states = useDirectoryList(withState && countryCode && !countryFree ? countryCode : null, loadStates);
  const stateMatch = state.code
    ? states.items.find((s) => s.iso2 === state.code)
    : state.name && !state.free
      ? states.items.find((s) => sameName(s.name, state.name))
      : undefined;
  const stateCode = state.code || stateMatch?.iso2 || '';
  const stateFree = countryFree || state.free || (state.name !== '' && !stateCode && states.settled);

  const loadCities = useCallback((key: string) => {
    const [countryIso, stateIso] = key.split('/');
    return directory.cities(countryIso, stateIso);
  }, [directory]);
  const cities = useDirectoryList(withCity && !stateFree && countryCode && stateCode ? `${countryCode}/${stateCode}` : null, loadCities);
  const cityMatch = city.name && !city.free ? cities.items.find((c) => sameName(c.name, city.name)) : undefined;
  const cityFree = stateFree || city.free || (city.name !== '' && !cityMatch && cities.settled);

  const change = (next: Selection, changed: readonly LocationLevel[], focusLevel: LocationLevel | null = null) => {
    setSelection(next);
    setFocus(focusLevel);
    onChange(next, changed.filter((level) => levels.includes(level)));
  };

  const commitCountry = (value: string | DirectoryPlace | null) => {
    const typed = typeof value === 'string' ? value.trim() : null;
    const chosen = typeof value === 'string' ? countries.items.find((c) => sameName(c.name, value)) : value;
    const next: Part = chosen ? partOf(chosen) : typed ? { ...FREE, name: typed } : EMPTY;
    setCountryInput(next.name);
    const unchanged = next.name === country.name && next.free === countryFree && (next.code === countryCode || next.free);
    if (unchanged) return;
    change({ country: next, state: EMPTY, city: EMPTY }, ALL_LEVELS);
  };

  const chooseState = (choice: Choice | null) => {
    if (choice?.others) change({ country, state: FREE, city: EMPTY }, ['state', 'city'], 'state');
    else change({ country, state: choice ? partOf(choice) : EMPTY, city: EMPTY }, ['state', 'city']);
  };
  const typeState = (name: string) => change({ country, state: { ...FREE, name }, city }, ['state']);

  const chooseCity = (choice: Choice | DirectoryCity | null) => {
    if (choice && 'others' in choice && choice.others) change({ country, state, city: FREE }, ['city'], 'city');
    else change({ country, state, city: choice ? { ...partOf(choice), code: '' } : EMPTY }, ['city']);
  };
  const typeCity = (name: string) => change({ country, state, city: { ...FREE, name } }, ['city']);

  const label = (level: LocationLevel) => translate(`widgets.location.${level}`);
  const backToList = (level: 'state' | 'city', reset: () => void) => (
    <InputAdornment position="end">
      <IconButton size="small" edge="end" aria-label={translate('widgets.location.back_to_list', { field: label(level) })} onClick={reset}>
        <ListIcon fontSize="small" />
      </IconButton>
    </InputAdornment>
  );
  const freeText = (level: 'state' | 'city', value: string, onType: (name: string) => void, canGoBack: boolean, reset: () => void) => (
    <TextField
      id={level}
      label={label(level)}
      value={value}
      disabled={disabled}
      autoFocus={focus === level}
      onChange={(event) => onType(event.target.value)}
      sx={PART}
      slotProps={{ input: { endAdornment: canGoBack ? backToList(level, reset) : undefined } }}
    />
  );
  // The current value is kept among the options while its list loads (or when it is not in it).
  const withCurrent = (options: Choice[], current: Choice | null) =>
    current && !options.some((o) => o.name === current.name && o.iso2 === current.iso2) ? [...options, current] : options;
  const equal = (a: Choice, b: Choice) => a.name === b.name && a.iso2 === b.iso2 && !!a.others === !!b.others;

  const countryValue: DirectoryPlace | string | null = country.name
    ? countryMatch ?? (countryFree ? country.name : { name: country.name, iso2: country.code, latitude: country.latitude, longitude: country.longitude })
    : null;
  const stateValue: Choice | null = state.name ? stateMatch ?? { name: state.name, iso2: state.code, latitude: state.latitude, longitude: state.longitude } : null;
  const cityValue: Choice | null = city.name ? (cityMatch ? { ...cityMatch, iso2: '' } : { name: city.name, iso2: '', latitude: city.latitude, longitude: city.longitude }) : null;

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ width: '100%', my: 1 }}>
      <Autocomplete<DirectoryPlace, false, false, true>
        freeSolo
        id="country"
        sx={PART}
        options={countries.items}
        loading={countries.loading}
        disabled={disabled}
        value={countryValue}
        inputValue={countryInput}
        onInputChange={(_event, value) => setCountryInput(value)}
        onChange={(_event, value) => commitCountry(value)}
        onBlur={() => {
          if (countryInput.trim() !== country.name) commitCountry(countryInput);
        }}
        getOptionLabel={(option) => (typeof option === 'string' ? option : option.name)}
        isOptionEqualToValue={(option, value) => option.iso2 === value.iso2}
        renderInput={(params) => (
          <TextField {...params} label={label('country')} required={required} error={!!countryError} helperText={countryError} />
        )}
      />
      {withState &&
        (stateFree ? (
          freeText('state', state.name, typeState, !countryFree, () => chooseState(null))
        ) : (
          <Autocomplete<Choice, false, false, false>
            id="state"
            sx={PART}
            options={withCurrent([others, ...states.items], stateValue)}
            loading={states.loading}
            disabled={disabled || !countryCode}
            value={stateValue}
            onChange={(_event, value) => chooseState(value)}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={equal}
            renderInput={(params) => <TextField {...params} label={label('state')} />}
          />
        ))}
      {withCity &&
        (cityFree ? (
          freeText('city', city.name, typeCity, !stateFree, () => chooseCity(null))
        ) : (
          <Autocomplete<Choice, false, false, false>
            id="city"
            sx={PART}
            options={withCurrent([others, ...cities.items.map((c) => ({ ...c, iso2: '' }))], cityValue)}
            loading={cities.loading}
            disabled={disabled || !stateCode}
            value={cityValue}
            onChange={(_event, value) => chooseCity(value)}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={equal}
            renderInput={(params) => <TextField {...params} label={label('city')} />}
          />
        ))}
    </Stack>
  );
}

const orderLevels = (levels: readonly LocationLevel[]) => ALL_LEVELS.filter((level) => level === 'country' || levels.includes(level));

/** In a react-admin form: validates the country and writes the picked values into the form. */
function FormLocationInput({ levels, required, disabled }: { levels: readonly LocationLevel[]; required?: boolean; disabled?: boolean }) {
  const record = useRecordContext();
  const form = useFormContext();
  // The record is read when it is shown; picks made here are the truth afterwards (another record
  // starts the picker afresh, a refetch of the same one does not).
  const initial = useMemo(() => readLocation(record), [record]);
  const validate = useMemo(() => (required ? requiredValidator() : undefined), [required]);
  const { fieldState } = useInput({ source: 'country', validate, defaultValue: initial.country.name || undefined });

  const write = (selection: Selection, changed: readonly LocationLevel[]) => {
    const pick = detailsOf(selection, levels);
    for (const level of changed) {
      const options = { shouldDirty: true, shouldTouch: true, shouldValidate: level === 'country' && form.getFieldState('country').invalid };
      form.setValue(level, pick[level], options);
      form.setValue(`${level}_details`, pick[`${level}_details`], { shouldDirty: true, shouldTouch: true });
    }
  };
  const error = fieldState.error?.message;
  return (
    <LocationFields
      key={String(record?.id ?? '')}
      levels={levels}
      initial={initial}
      required={required}
      disabled={disabled}
      countryError={error ? <InputHelperText error={error} /> : undefined}
      onChange={write}
    />
  );
}

const NO_LOCATION: Selection = { country: EMPTY, state: EMPTY, city: EMPTY };

/**
 * `<LocationInput levels={['country', 'state']} required />` in a react-admin form, or
 * `<LocationInput onPick={(pick) => ...} />` anywhere.
 */
export function LocationInput({ levels = ALL_LEVELS, required, onPick, disabled }: LocationInputProps) {
  const shown = orderLevels(levels);
  if (onPick) {
    return (
      <LocationFields
        levels={shown}
        initial={NO_LOCATION}
        required={required}
        disabled={disabled}
        onChange={(selection) => onPick(detailsOf(selection, shown))}
      />
    );
  }
  return <FormLocationInput levels={shown} required={required} disabled={disabled} />;
}

export default LocationInput;
