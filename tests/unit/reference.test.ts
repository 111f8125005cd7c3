// @vitest-environment jsdom
/**
 * The reference screens' wire format and rules (SPEC §7.4, §7.6, §2.25, §4.6): what the console
 * sends for each of their calls, against a fake HTTP client, and their small pure rules.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope } from '../../contract';
import { createDataProvider, type HttpClient } from '../../dataProvider';
import { clearSession, getSession, setSession } from '../../authProvider/session';
import { registry } from '../../resources';
import { i18nProvider } from '../../i18n';
import { buildPayload } from '../../contract';
import { activeFor, lifecycle } from '../../resources/deletions/lifecycle';
import { cvName, downloadUrl } from '../../resources/applicants/download';
import { placeText } from '../../resources/distances/place';
import { isDayMonthYear } from '../../server/hooks/jobs';
import type { ListScreen } from '../../src/screens/types';
import { KEY_INDEXES } from '../spec';

const API = 'http://api.test/api';

function fake() {
  const calls: { url: string; body: Record<string, unknown> }[] = [];
  const client: HttpClient = async (url, init) => {
    calls.push({ url, body: JSON.parse(String(init.body)) as Record<string, unknown> });
    return { status: 200, json: envelope({ status: true, query: 'Done', HLL: [] }) };
  };
  return { dp: createDataProvider({ apiUrl: API, resources: registry, session: getSession, http: client }), calls };
}

const shown = (resource: string) => {
  const screen = registry.resources.find((r) => r.menu?.path === `/${resource}`)!.screen as ListScreen;
  return screen.form!.fields.flatMap((f) =>
    f.kind === 'location' ? (f.levels ?? ['country', 'state', 'city']).flatMap((l) => [l, `${l}_details`]) : [f.source],
  );
};

beforeEach(() => {
  clearSession();
  setSession('tok', 1);
});

describe('what the reference screens send', () => {
  it('updates a template through POST /templates with the edited fields and its id (SPEC §7.4)', async () => {
    const { dp, calls } = fake();
    const record = { id: 2, from_email: 'a@example.com', subject: 'Old', message: 'Body', serial: 'S', is_active: 1 };
    const data = buildPayload({ ...record, subject: 'New' }, record, { id: 1 }, shown('mail-templates'));
    await dp.update('mail-templates', { id: 2, data, previousData: record });
    expect(calls[0].url).toBe(`${API}/templates`);
    expect(calls[0].body).toMatchObject({ id: 2, from_email: 'a@example.com', subject: 'New', message: 'Body', serial: 'S' });
  });

  it.each([
    ['subscription-plans', '/subcriptionPlan', { id: 1, amount: 59, total_clicks: 10, currency: 'USD' }],
    ['shipping-classes', '/shipping', { id: 1, amount: 5, means: 'Road', duration: '2 days', note: null, currency: 'USD' }],
    ['mile-prices', '/mile', { id: 1, value_per_mile: 0.5, country: 'Ghana', currency: 'USD' }],
  ])("%s saves through %s with currency 'USD' (SPEC §5)", async (resource, path, values) => {
    const { dp, calls } = fake();
    const data = buildPayload(values, { id: 1 }, { id: 1 }, shown(resource));
    await dp.update(resource, { id: 1, data, previousData: { id: 1 } });
    expect(calls[0].url).toBe(`${API}${path}`);
    expect(calls[0].body).toMatchObject(values);
  });

  it("saves a job with country and state from the pickers, and deletes it with {tyype: 'clear', id}", async () => {
    const { dp, calls } = fake();
    const values = { title: 'T', description: 'D', qualification: 'Q', details: 'X', expiry: '31/12/2026', country: 'Nigeria', state: 'Lagos' };
    await dp.create('job-posts', { data: buildPayload(values, undefined, { id: 1 }, shown('job-posts')) });
    expect(calls[0].url).toBe(`${API}/job`);
    expect(calls[0].body).toMatchObject(values);
    expect(calls[0].body).not.toHaveProperty('city');
    await dp.delete('job-posts', { id: 9, previousData: { id: 9 } });
    expect(calls[1]).toEqual({ url: `${API}/job/status`, body: { tyype: 'clear', id: 9 } });
  });

  it('saves a distance as {location_A, location_B, distance_km, id} and deletes it with {id} (SPEC §7.6)', async () => {
    const { dp, calls } = fake();
    const record = { id: 4, location_A: 'A,B,C', location_B: 'D,E,F', distance_km: 5 };
    const data = buildPayload({ ...record, distance_km: 536 }, record, { id: 1 }, shown('custom-distances'));
    await dp.update('custom-distances', { id: 4, data, previousData: record });
    expect(calls[0].url).toBe(`${API}/distance`);
    expect(calls[0].body).toMatchObject({ location_A: 'A,B,C', location_B: 'D,E,F', distance_km: 536, id: 4 });
    await dp.delete('custom-distances', { id: 4, previousData: record });
    expect(calls[1]).toEqual({ url: `${API}/distance/status`, body: { id: 4 } });
  });

  it("merges the whole subscription into its status call, 'Active' as true (SPEC §7.6, DESIGN D3)", async () => {
    const { dp, calls } = fake();
    const previousData = { id: 3, shop_id: 0, type: 'advert', amount: 49, is_active: 0 };
    await dp.setStatus('subscriptions', { id: 3, data: { is_active: 'Active' }, previousData });
    expect(calls[0]).toEqual({ url: `${API}/subcription/status`, body: { ...previousData, is_active: true } });
  });

  it("sends a deletion request's save with is_active 1 only for 'Deleted' (SPEC §4.6)", async () => {
    expect(activeFor('Deleted')).toBe(1);
    expect(activeFor('No action')).toBe(0);
    expect(activeFor('Deletion rejected by admin')).toBe(0);
    const { dp, calls } = fake();
    const record = { id: 5, deletion_status: 'No action', customer: 'Bea', customer_id: 3, feedback: 'Bye', is_active: 0 };
    const values = buildPayload({ ...record, deletion_status: 'Deleted' }, record, { id: 1 }, shown('deletion-requests'));
    const beforeSave = lifecycle.beforeSave as (data: Record<string, unknown>, ...rest: unknown[]) => Promise<Record<string, unknown>>;
    const data = await beforeSave(values, dp, 'deletion-requests');
    await dp.update('deletion-requests', { id: 5, data, previousData: record });
    expect(calls[0].url).toBe(`${API}/deletion`);
    expect(calls[0].body).toMatchObject({ id: 5, deletion_status: 'Deleted', customer: 'Bea', customer_id: 3, feedback: 'Bye', is_active: 1 });
  });

  it('searches each screen with its keyIndex and the columns the spec names (SPEC §9.4)', async () => {
    const screens = KEY_INDEXES.flatMap((spec) => {
      const menu = registry.resources.find((r) => r.name === spec.entity)?.menu;
      return spec.columns && menu ? [{ ...spec, route: menu.path.slice(1) }] : [];
    });
    expect(screens.map((s) => s.entity)).toEqual(expect.arrayContaining(['templates', 'deletions']));
    for (const screen of screens) {
      const { dp, calls } = fake();
      await dp.getList(screen.route, { pagination: { page: 1, perPage: 15 }, sort: { field: 'id', order: 'DESC' }, filter: { q: 'ab' } });
      expect(calls.at(-1)!.url, screen.screen).toBe(`${API}/search-dive`);
      expect(calls.at(-1)!.body.keyIndex, screen.screen).toBe(screen.keyIndex);
      expect(calls.at(-1)!.body.targets, screen.screen).toEqual(expect.arrayContaining([...screen.columns!]));
    }
  });

  it('lists, searches, renames and moves a subcategory through its own calls (/subcategory screen)', async () => {
    const { dp, calls } = fake();
    const def = registry.resources.find((r) => r.screenPath === '/subcategory')!;
    const screen = def.screen as ListScreen;
    const record = { id: 7, name: 'Pans', serial: 'S-1', category_id: 2, category: { id: 2, name: 'Kitchen' } };
    const data = buildPayload({ ...record, name: 'Skillets', category_id: 5 }, record, { id: 1 }, screen.form!.fields.map((f) => f.source));
    await dp.update('subcategory', { id: 7, data, previousData: record });
    expect(calls[0].url).toBe(`${API}/subcategory`);
    expect(calls[0].body).toMatchObject({ id: 7, name: 'Skillets', serial: 'S-1', category_id: 5 });
    await dp.getList('subcategory', { pagination: { page: 2, perPage: 15 }, sort: { field: 'id', order: 'DESC' }, filter: {} });
    expect(calls[1].url).toBe(`${API}/subcategories`);
    expect(calls[1].body).toMatchObject({ page: 2 });
    await dp.getList('subcategory', { pagination: { page: 1, perPage: 15 }, sort: { field: 'id', order: 'DESC' }, filter: { q: 'pan' } });
    expect(calls[2].url).toBe(`${API}/search-dive`);
    expect(calls[2].body).toMatchObject({ keyIndex: registry.entity('subcategories').search!.keyIndex, value: 'pan', targets: ['id', 'name', 'serial'] });
  });
});

describe('rules of the reference screens', () => {
  it("downloads a CV from /download/{name}, whatever form the stored address takes", () => {
    expect(cvName('http://host/api/download/cv_3.docx')).toBe('cv_3.docx');
    expect(cvName('/files/docs/cv_3.docx')).toBe('cv_3.docx');
    expect(cvName('../../etc/passwd')).toBeNull();
    expect(cvName(null)).toBeNull();
    expect(downloadUrl('/api/', 'cv_3.docx')).toBe('/api/download/cv_3.docx');
  });

  it("writes a pick as 'country,state,area' (SPEC §2.25)", () => {
    expect(placeText({ country: 'Nigeria', state: 'Lagos', city: 'Ikeja' })).toBe('Nigeria,Lagos,Ikeja');
    expect(placeText({ country: 'Liberia', state: '', city: '' })).toBe('Liberia');
    expect(placeText({ country: 'Korea, Republic of', state: 'Seoul', city: '' })).toBe('Korea  Republic of,Seoul');
  });

  it('reads job expiry dates as dd/mm/yyyy', () => {
    expect(isDayMonthYear('31/12/2026')).toBe(true);
    expect(isDayMonthYear('29/02/2027')).toBe(false);
    expect(isDayMonthYear('2026-12-31')).toBe(false);
  });

  it('words the screens as the spec does', () => {
    const t = (key: string) => i18nProvider.translate(key);
    expect(['No action', 'Deleted', 'Deletion rejected by admin'].map((v) => t(`resources.deletions.choices.${v}`))).toEqual([
      'No Action', 'Delete Permanently', 'Cancel Delete',
    ]);
    expect(t('resources.shippings.inputs.currency')).toBe('currency ( USD only )');
    expect(t('resources.miles.inputs.currency')).toBe('Currency ( USD only )');
    expect(t('resources.distances.placeholders.location_B')).toBe('Country,State,Area');
    expect(t('resources.distances.inputs.distance_km')).toBe('Distance (Kilometer)');
    expect(t('resources.jobs.inputs.expiry')).toBe('Before');
    expect(t('resources.applicants.click')).toBe('click');
  });
});
