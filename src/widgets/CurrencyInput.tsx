/** A currency code picked from the exchange rates (SPEC §2.15 'Commission Currency'). */
import { SelectInput, required, useGetList } from 'react-admin';

export const EXCHANGES_RESOURCE = 'Currencies-exchange';

export function CurrencyInput({ source, label, isRequired }: { source: string; label: string; isRequired?: boolean }) {
  const { data = [], isPending } = useGetList(EXCHANGES_RESOURCE, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'code', order: 'ASC' },
  });
  const choices = data.map((rate) => ({ id: String(rate.code), name: String(rate.code) }));
  return (
    <SelectInput
      source={source}
      label={label}
      choices={choices}
      isPending={isPending}
      validate={isRequired ? required() : undefined}
      fullWidth
    />
  );
}
