/**
 * The signed-in user's own page (named routes /account, /bank, /paypal): profile (a new email or
 * phone number needs the current password), password change (/user/update {current_password,
 * password}), the bank and Paypal details of the user's shops (SPEC §3.19, saved through /shop with the generic payload of
 * SPEC §3.24), the signed-in sessions with 'sign out everywhere else', the user's address (the default
 * delivery address), writing to support and asking for the account's deletion. /bank and /paypal open
 * their sections.
 */
import { useEffect, useState } from 'react';
import { Alert, Box, Button, List, ListItem, ListItemText, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Form, Loading, SaveButton, TextInput, Title, required, useDataProvider, useLocaleState, useLocation, useTranslate, type RaRecord,
} from 'react-admin';
import { MIN_PASSWORD_LENGTH, PATHS, roleOf } from '../../contract';
import { answerOf, type MarketplaceDataProvider } from '../../dataProvider';
import { getSession } from '../../authProvider/session';
import { useRefreshProfile } from '../../src/layout/ProfileWatcher';
import { inLanguage, messageOf } from '../../src/pages/messages';
import { buildPayload, formValues } from '../../contract';
import { registry } from '../index';
import SecondFactorSection from './SecondFactorSection';
import { Section, useAnswer } from './AccountSection';
import AddressSection from './AddressSection';
import SupportSection from './SupportSection';
import DeletionSection from './DeletionSection';

const T = 'resources.users.account';
const BANK_FIELDS = ['bank_name', 'bank_country', 'swift_code', 'sort_code', 'account_name', 'account_number'] as const;
const PAYPAL_FIELDS = ['paypal_email'] as const;
/** The seller's own shops screen, whose save the bank and Paypal sections use. */
const OWN_SHOPS = registry.resources.find((r) => r.seller?.via === 'owner_id')?.seller?.path.slice(1) ?? 'my-shops';

interface SessionRow {
  id: number;
  created_at: string;
  expires_at: string;
  current: boolean;
}

function ProfileSection({ profile }: { profile: RaRecord }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const answer = useAnswer();
  const refreshProfile = useRefreshProfile();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(String(profile.email ?? ''));
  const [phone, setPhone] = useState(String(profile.phone ?? ''));
  // The identifiers one signs in with: a new email or phone number asks for the current password.
  const identifierChanged =
    email.trim().toLowerCase() !== String(profile.email ?? '').toLowerCase() || phone.trim() !== String(profile.phone ?? '').trim();
  const submit = async (values: Record<string, unknown>) => {
    // The contract's fields of /user/edit (SPEC §7.2), the user's own abilities unchanged; the
    // current password only when the email or phone changes (an extension the server asks for).
    const body = {
      abilities: profile.abilities, applications: profile.applications ?? null, email: values.email, id: profile.id,
      is_active: profile.is_active, name: values.name, phone: values.phone,
      ...(identifierChanged ? { current_password: values.current_password } : {}),
    };
    try {
      answer.success((await dataProvider.call(PATHS.userEdit, body)).query);
      await queryClient.invalidateQueries({ queryKey: ['account'] });
      await refreshProfile();
    } catch (error) {
      answer.failure(error);
    }
  };
  return (
    <Section id="profile" title={translate(`${T}.profile`)}>
      <Form record={{ name: profile.name, email: profile.email, phone: profile.phone }} onSubmit={submit}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' }, columnGap: 2 }}>
          <TextInput source="name" label={`${T}.name`} validate={required()} />
          <TextInput source="email" type="email" label={`${T}.email`} validate={required()} onChange={(e) => setEmail(e.target.value)} />
          <TextInput source="phone" type="tel" label={`${T}.phone`} onChange={(e) => setPhone(e.target.value)} />
          {identifierChanged && (
            <TextInput
              source="current_password"
              type="password"
              label={`${T}.current_password`}
              helperText={`${T}.current_password_help`}
              validate={required()}
              autoComplete="current-password"
            />
          )}
        </Box>
        <SaveButton label={`${T}.save_profile`} />
      </Form>
    </Section>
  );
}

function PasswordSection() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const answer = useAnswer();
  const queryClient = useQueryClient();
  const [formKey, setFormKey] = useState(0);
  const validate = (values: Record<string, unknown>) => {
    const errors: Record<string, string> = {};
    const next = String(values.password ?? '');
    if (next.length < MIN_PASSWORD_LENGTH) errors.password = 'validation.password_min';
    if (values.confirm !== values.password) errors.confirm = `${T}.mismatch`;
    if (!values.current_password) errors.current_password = 'ra.validation.required';
    return errors;
  };
  const submit = async (values: Record<string, unknown>) => {
    try {
      const { query } = await dataProvider.call(PATHS.updatePassword, { current_password: values.current_password, password: values.password });
      answer.success(query);
      setFormKey((k) => k + 1);
      // The server ends every other session with a password change.
      await queryClient.invalidateQueries({ queryKey: ['account', 'sessions'] });
    } catch (error) {
      answer.failure(error);
    }
  };
  return (
    <Section id="password" title={translate(`${T}.password`)}>
      <Form key={formKey} onSubmit={submit} validate={validate}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, columnGap: 2 }}>
          <TextInput source="current_password" type="password" label={`${T}.current_password`} autoComplete="current-password" />
          <TextInput source="password" type="password" label={`${T}.new_password`} autoComplete="new-password" />
          <TextInput source="confirm" type="password" label={`${T}.confirm_password`} autoComplete="new-password" />
        </Box>
        <SaveButton label={`${T}.change_password`} />
      </Form>
    </Section>
  );
}

/** Bank or Paypal details of one of the user's shops, saved through the shop's save. */
function ShopDetails({ id, fields, shops, profile }: { id: 'bank' | 'paypal'; fields: readonly string[]; shops: RaRecord[]; profile: RaRecord }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const answer = useAnswer();
  const queryClient = useQueryClient();
  const [shopId, setShopId] = useState(shops[0]?.id);
  const shop = shops.find((s) => s.id === shopId) ?? shops[0];
  const title = translate(`${T}.${id}`);
  if (!shop) {
    return (
      <Section id={id} title={title}>
        <Typography>{translate(`${T}.no_shops`)}</Typography>
      </Section>
    );
  }
  const submit = async (values: Record<string, unknown>) => {
    const data = buildPayload(values, shop, { id: profile.id, name: String(profile.name ?? '') }, fields);
    try {
      const result = await dataProvider.update(OWN_SHOPS, { id: shop.id, data, previousData: shop });
      answer.success(answerOf(result.data));
      await queryClient.invalidateQueries({ queryKey: ['account', 'shops'] });
    } catch (error) {
      answer.failure(error);
    }
  };
  const start = formValues(shop);
  return (
    <Section id={id} title={title}>
      {shops.length > 1 && (
        <TextField
          select
          size="small"
          label={translate(`${T}.shop`)}
          value={shop.id}
          onChange={(e) => setShopId(Number(e.target.value))}
          sx={{ mb: 2, minWidth: 240 }}
        >
          {shops.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {String(s.name)}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Form key={`${shop.id}-${id}`} record={Object.fromEntries(fields.map((f) => [f, start[f] ?? '']))} onSubmit={submit}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' }, columnGap: 2 }}>
          {fields.map((f) => (
            <TextInput key={f} source={f} type={f === 'paypal_email' ? 'email' : 'text'} label={`${T}.${f}`} validate={required()} />
          ))}
        </Box>
        <SaveButton label={`${T}.save_${id}`} />
      </Form>
    </Section>
  );
}

function SessionsSection() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const answer = useAnswer();
  const { data, error, isPending, refetch } = useQuery({
    queryKey: ['account', 'sessions'],
    queryFn: async () => ((await dataProvider.call<unknown, SessionRow[]>(PATHS.sessions)).HLL ?? []) as SessionRow[],
    retry: false,
  });
  const end = async (body: object) => {
    try {
      answer.success((await dataProvider.call(PATHS.endSessions, body)).query);
    } catch (e) {
      answer.failure(e);
    }
    await refetch();
  };
  const [locale] = useLocaleState();
  const when = (iso: string) => new Date(iso).toLocaleString(locale);
  const others = (data ?? []).filter((s) => !s.current);
  return (
    <Section id="sessions" title={translate(`${T}.sessions`)}>
      {isPending ? (
        <Loading />
      ) : error ? (
        <Typography color="text.secondary">{translate(`${T}.sessions_unavailable`)}</Typography>
      ) : (
        <>
          <List dense aria-label={translate(`${T}.sessions`)}>
            {data!.map((s) => (
              <ListItem
                key={s.id}
                secondaryAction={
                  s.current ? undefined : (
                    <Button size="small" onClick={() => end({ id: s.id })}>
                      {translate(`${T}.sign_out`)}
                    </Button>
                  )
                }
              >
                <ListItemText
                  primary={s.current ? translate(`${T}.this_session`) : translate(`${T}.session_started`, { date: when(s.created_at) })}
                  secondary={`${s.current ? `${translate(`${T}.session_started`, { date: when(s.created_at) })}, ` : ''}${translate(`${T}.session_expires`, { date: when(s.expires_at) })}`}
                />
              </ListItem>
            ))}
          </List>
          {others.length ? (
            <Button variant="outlined" color="warning" onClick={() => end({ others: true })}>
              {translate(`${T}.sign_out_others`)}
            </Button>
          ) : (
            <Typography color="text.secondary">{translate(`${T}.no_other_sessions`)}</Typography>
          )}
        </>
      )}
    </Section>
  );
}

export default function AccountPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { pathname } = useLocation();
  const id = getSession()?.id;
  const profile = useQuery({
    queryKey: ['account', 'profile', id],
    enabled: id !== undefined,
    queryFn: async () => (await dataProvider.getOne('users', { id: id! })).data,
  });
  const shops = useQuery({
    queryKey: ['account', 'shops', id],
    enabled: id !== undefined,
    queryFn: async () => ((await dataProvider.call<unknown, RaRecord[]>(PATHS.ownerShops, { owner_id: Number(id) })).HLL ?? []) as RaRecord[],
  });
  const section = pathname.replace(/^\//, '');
  const ready = !!profile.data && !!shops.data;
  useEffect(() => {
    if (!ready || (section !== 'bank' && section !== 'paypal')) return;
    const heading = document.getElementById(`${section}-title`);
    heading?.scrollIntoView({ block: 'start' });
    heading?.focus({ preventScroll: true });
  }, [ready, section]);

  if (profile.error) return <Alert severity="error">{inLanguage(translate, messageOf(profile.error, translate('management.failed')))}</Alert>;
  if (!ready) return <Loading />;
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <Title title={translate(`${T}.title`)} />
      <Typography variant="h5" component="h1">
        {translate(`${T}.title`)}
      </Typography>
      <ProfileSection key={String(profile.dataUpdatedAt)} profile={profile.data} />
      <PasswordSection />
      <SecondFactorSection />
      {roleOf(profile.data.abilities) !== 'buyer' && (
        <>
          <ShopDetails id="bank" fields={BANK_FIELDS} shops={shops.data} profile={profile.data} />
          <ShopDetails id="paypal" fields={PAYPAL_FIELDS} shops={shops.data} profile={profile.data} />
        </>
      )}
      <AddressSection key={`address-${profile.dataUpdatedAt}`} profile={profile.data} />
      <SupportSection />
      <DeletionSection />
      <SessionsSection />
    </Stack>
  );
}
