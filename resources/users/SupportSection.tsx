/**
 * Writing to support from the account page: a title and a message (SPEC §3.12), sent through the
 * support messages' save; the server names the writer and their country, and admins read it on Support.
 */
import { useState } from 'react';
import { Form, SaveButton, TextInput, required, useDataProvider, useTranslate } from 'react-admin';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { registry } from '../index';
import { Section, useAnswer } from './AccountSection';

export default function SupportSection() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const answer = useAnswer();
  const [sent, setSent] = useState(0);
  const submit = async (values: Record<string, unknown>) => {
    try {
      answer.success((await dataProvider.call(registry.entity('supports').save, { title: values.title, message: values.message })).query);
      setSent((n) => n + 1);
    } catch (error) {
      answer.failure(error);
    }
  };
  return (
    <Section id="support" title={translate('resources.users.support_request.title')}>
      <Form key={sent} onSubmit={submit}>
        <TextInput source="title" label="resources.users.support_request.subject" validate={required()} inputProps={{ maxLength: 255 }} />
        <TextInput source="message" label="resources.users.support_request.message" validate={required()} multiline minRows={5} />
        <SaveButton label="resources.users.support_request.send" />
      </Form>
    </Section>
  );
}
