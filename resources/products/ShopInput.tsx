/**
 * Shop (SPEC §2.11). On the admin screen, any shop, searched by name (the Shops list); on My Products,
 * one of the signed-in user's own shops (POST /shopz {owner_id}), with a word when they have none.
 */
import { useQuery } from '@tanstack/react-query';
import {
  AutocompleteInput, ReferenceInput, SelectInput, required, useDataProvider, useGetIdentity, useRecordContext, useResourceContext,
  useTranslate,
} from 'react-admin';
import { PATHS } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import type { FieldProps } from '../../src/screens/types';
import { MY_PRODUCTS_PATH } from './paths';

interface ShopChoice {
  id: number;
  name: string;
}

function OwnShopInput({ source, label, required: isRequired }: FieldProps) {
  const translate = useTranslate();
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
  // A product moved by an administrator keeps its shop among the choices.
  const own = record?.shop && !data.some((s) => s.id === record.shop.id) ? [{ id: record.shop.id, name: record.shop.name }] : [];
  const choices = [...own, ...data];
  return (
    <SelectInput
      source={source}
      label={label}
      choices={choices}
      isPending={isPending}
      validate={isRequired ? required() : undefined}
      helperText={!isPending && choices.length === 0 ? translate('resources.products.no_own_shop') : undefined}
      fullWidth
    />
  );
}

export default function ShopInput(props: FieldProps) {
  const seller = useResourceContext() === MY_PRODUCTS_PATH.slice(1);
  if (seller) return <OwnShopInput {...props} />;
  return (
    <ReferenceInput source={props.source} reference="shops" perPage={25} sort={{ field: 'name', order: 'ASC' }}>
      <AutocompleteInput label={props.label} optionText="name" validate={props.required ? required() : undefined} fullWidth />
    </ReferenceInput>
  );
}
