/**
 * The account's address (SPEC §3.2 userForm: street, city, state, country, zip), saved through the
 * user's own /user/edit; checkout starts from it as the delivery address.
 */
import { Box, Typography } from '@mui/material';
import { Form, SaveButton, TextInput, useDataProvider, useTranslate, type RaRecord } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { PATHS } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { Section, useAnswer } from './AccountSection';

export const ADDRESS_PARTS = ['street_name', 'city', 'state', 'country', 'zip'] as const;

export default function AddressSection({ profile }: { profile: RaRecord }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const answer = useAnswer();
  const queryClient = useQueryClient();
  const submit = async (values: Record<string, unknown>) => {
    const address = Object.fromEntries(ADDRESS_PARTS.map((part) => [part, String(values[part] ?? '').trim() || null]));
    try {
      answer.success((await dataProvider.call(PATHS.userEdit, { id: profile.id, ...address })).query);
      await queryClient.invalidateQueries({ queryKey: ['account', 'profile'] });
    } catch (error) {
      answer.failure(error);
    }
  };
  return (
    <Section id="address" title={translate('resources.users.address.title')}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{translate('resources.users.address.help')}</Typography>
      <Form record={Object.fromEntries(ADDRESS_PARTS.map((part) => [part, profile[part] ?? '']))} onSubmit={submit}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' }, columnGap: 2 }}>
          {ADDRESS_PARTS.map((part) => (
            <Box key={part} sx={{ gridColumn: part === 'street_name' ? '1 / -1' : undefined }}>
              <TextInput source={part} label={`cart.address.${part}`} inputProps={{ maxLength: 255 }} />
            </Box>
          ))}
        </Box>
        <SaveButton label="resources.users.address.save" />
      </Form>
    </Section>
  );
}
