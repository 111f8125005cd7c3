/** Shop (SPEC §2.11): one of the signed-in user's own shops (POST /shopz {owner_id}). */
import { useQuery } from '@tanstack/react-query';
import { SelectInput, required, useDataProvider, useGetIdentity, useRecordContext } from 'react-admin';
import { PATHS } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import type { FieldProps } from '../types';

interface ShopChoice {
  id: number;
  name: string;
}

export default function ShopInput({ source, label, required: isRequired }: FieldProps) {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const record = useRecordContext();
  const { identity } = useGetIdentity();
  const { data = [], isPending } = useQuery({
    queryKey: ['shopz', identity?.id],
    enabled: identity?.id !== undefined,
    queryFn: async () => {
      const { HLL } = await dataProvider.call<unknown, ShopChoice[]>(PATHS.ownerShops, { owner_id: identity!.id });
      return Array.isArray(HLL) ? HLL.map(({ id, name }) => ({ id, name })) : [];
    },
  });
  // An administrator editing a seller's product keeps that product's shop among the choices.
  const own = record?.shop && !data.some((s) => s.id === record.shop.id) ? [{ id: record.shop.id, name: record.shop.name }] : [];
  return (
    <SelectInput
      source={source}
      label={label}
      choices={[...own, ...data]}
      isPending={isPending}
      validate={isRequired ? required() : undefined}
      fullWidth
    />
  );
}
