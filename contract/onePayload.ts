/**
 * SPEC §3.24's one create/update payload, which the legacy back end's forms all send: the union of
 * the fields of every management form, its groups and its defaults. An entity whose back end needs
 * it says so (`api.onePayload`); any other entity's save is derived from its own fields
 * (src/screens/payload.ts). DESIGN D13: a field the form shows is sent as the user left it, empty
 * included (as null); only fields the form does not show fall back to the record being edited, then
 * to §3.24's defaults.
 */
type Values = Record<string, unknown>;
type RaRecord = Values & { id: string | number };

/** Groups a record carries nested (SPEC §3.3, §3.4) and forms edit flat. */
const GROUPS = ['address', 'bank', 'paypal', 'band'] as const;

const isPlain = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A record as a form edits it: nested groups flattened, linked records as their ids, and fields
 * declared `from` another path started from it.
 */
export function formValues(record: RaRecord | undefined, fields: readonly { source: string; from?: string }[] = []): Values {
  if (!record) return {};
  const flat: Values = { ...record };
  for (const field of fields) if (field.from) flat[field.source] = record[field.from];
  for (const group of GROUPS) if (isPlain(record[group])) Object.assign(flat, record[group]);
  for (const link of ['category', 'subcategory']) {
    if (isPlain(record[link]) && flat[`${link}_id`] == null) flat[`${link}_id`] = record[link].id;
  }
  // SPEC §3.24's inputs of nested values: brand_name ↔ band.band_name, color/size ↔ variety_option,
  // a currency code carried as {code}.
  if (flat.band_name !== undefined && flat.brand_name === undefined) flat.brand_name = flat.band_name;
  if (isPlain(record.variety_option)) Object.assign(flat, { color: record.variety_option.color, size: record.variety_option.size });
  if (isPlain(record.currency)) flat.currency = record.currency.code;
  return flat;
}

const entered = (v: unknown) => v !== undefined && v !== null && v !== '';

export interface PayloadUser {
  id: string | number;
  name?: string;
}

/**
 * SPEC §3.24: every management form sends this one payload. `shown` are the form's own fields:
 * those §3.24 does not list (location_A, is_active…) are passed through as entered.
 */
export function buildPayload(
  values: Values,
  record: RaRecord | undefined,
  user: PayloadUser,
  shown: readonly string[] = [],
): Values {
  const from = formValues(record);
  const inForm = new Set(shown);
  const v = (key: string, fallback?: unknown) => {
    if (inForm.has(key)) return entered(values[key]) ? values[key] : null;
    return entered(values[key]) ? values[key] : entered(from[key]) ? from[key] : fallback;
  };
  const paypalEmail = v('paypal_email');
  const color = v('color');
  const size = v('size');
  const fields = [
    'category_id', 'subcategory_id', 'subcategory_name', 'currency', 'shop_id', 'weight', 'sku', 'in_stock', 'unit',
    'height', 'width', 'length', 'image', 'from_email', 'dispatch_status', 'subject', 'message',
    'commission_flat_rate', 'commission_monthly', 'commission_currency', 'type', 'nature', 'period', 'total_clicks',
    'amount', 'title', 'qualification', 'details', 'expiry', 'value', 'code', 'duration', 'means', 'note',
    'value_per_mile', 'currency_symbol', 'value_per_dollar',
  ];
  return {
    ...Object.fromEntries(shown.map((key) => [key, v(key)])),
    ...Object.fromEntries(fields.map((key) => [key, v(key)])),
    ...(record ? { id: record.id } : {}),
    owner_id: user.id,
    // Categories name themselves from the Name picker (SPEC §7.6).
    name: v('category_name') ?? v('name'),
    description: v('description'),
    address: Object.fromEntries(
      ['street_name', 'zip', 'city', 'city_details', 'country', 'country_details', 'state', 'state_details'].map((k) => [k, v(k)]),
    ),
    bank: Object.fromEntries(
      ['bank_name', 'bank_country', 'swift_code', 'sort_code', 'account_name', 'account_number'].map((k) => [k, v(k)]),
    ),
    paypal: { paypal_email: paypalEmail ?? '', name_of_seller: entered(paypalEmail) ? (user.name ?? '') : '' },
    price: v('price', 0),
    sale_price: v('sale_price', 0),
    quantity: v('quantity', 1),
    premier: v('premier', 'no'),
    product_type: v('product_type', 'new'),
    variety_option:
      entered(color) || entered(size) ? { color, size } : inForm.has('color') || inForm.has('size') ? null : v('variety_option', null),
    band: { band_id: v('band_id'), band_name: v('brand_name') ?? v('band_name') },
    band_name: v('brand_name') ?? v('band_name'),
    serial: v('serial', null),
    product_id: v('product_id', 0),
  };
}
