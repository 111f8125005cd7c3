/** A currency code picked from the exchange rates (SPEC §2.15 'Commission Currency'), or from a fixed list ('USD only'). */
import { SelectInput, required, useGetList } from 'react-admin';

export const EXCHANGES_RESOURCE = 'Currencies-exchange';

export function CurrencyInput(props: { source: string; label: string; isRequired?: boolean; only?: readonly string[] }) {
  const { source, label, isRequired, only } = props;
  const { data = [], isPending } = useGetList(EXCHANGES_RESOURCE, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'code', order: 'ASC' },
  }, { enabled: !only });
  const codes = only ?? data.map((rate) => String(rate.code));
  const choices = codes.map((code) => ({ id: code, name: code }));
  return (
    <SelectInput
      source={source}
      label={label}
      choices={choices}
      isPending={!only && isPending}
      // A list of one ('USD only', SPEC §5) starts on it: such a currency is always sent.
      defaultValue={only?.length === 1 ? only[0] : undefined}
      validate={isRequired ? required() : undefined}
      fullWidth
    />
  );
}
