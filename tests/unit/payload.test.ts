/**
 * The generic payload of SPEC §3.24 with DESIGN D13: a field the form shows is sent as the user left
 * it, empty included; fields it does not show fall back to the record, then to §3.24's defaults.
 */
import { describe, expect, it } from 'vitest';
import { b, buildPayload, formValues, i, s, t, type EntityContract } from '../../contract';
import { formValuesFor, payloadFor } from '../../src/screens/payload';

const user = { id: 7, name: 'Sam Seller' };
const shop = {
  id: 12, name: 'Sam’s Store', description: 'Goods', category: { id: 2, name: 'Fashion' },
  address: { street_name: '1 Road', zip: '1000', city: 'Ikeja', state: 'Lagos', country: 'Nigeria' },
  bank: { bank_name: 'First', bank_country: 'Nigeria', swift_code: 'FBNINGLA', sort_code: '20-00', account_name: 'Sam', account_number: '1' },
  paypal: { paypal_email: 'sam@example.com', name_of_seller: 'Sam Seller' },
};

describe('buildPayload (SPEC §3.24, DESIGN D13)', () => {
  it('sends an emptied optional field as null instead of the old value', () => {
    const values = { ...formValues(shop), swift_code: '', paypal_email: '' };
    const body = buildPayload(values, shop, user, ['name', 'swift_code', 'paypal_email']);
    expect(body.bank).toMatchObject({ swift_code: null, bank_name: 'First' });
    expect(body.paypal).toEqual({ paypal_email: '', name_of_seller: '' });
    expect(body.swift_code).toBeNull();
  });

  it('keeps what the form does not show from the record, and adds §3.24 defaults', () => {
    const body = buildPayload({ name: 'New name' }, shop, user, ['name']);
    expect(body).toMatchObject({
      id: 12, owner_id: 7, name: 'New name', description: 'Goods', category_id: 2,
      address: { street_name: '1 Road', city: 'Ikeja', country: 'Nigeria' },
      price: 0, sale_price: 0, quantity: 1, premier: 'no', product_type: 'new', product_id: 0, serial: null,
    });
    expect(body.paypal).toEqual({ paypal_email: 'sam@example.com', name_of_seller: 'Sam Seller' });
  });

  it('reads nested product values into their inputs and back (brand, colour and size, currency code)', () => {
    const product = { id: 5, name: 'Lamp', band: { band_id: null, band_name: 'Acme' }, variety_option: { color: 'Blue', size: 'M' }, currency: { code: 'NGN' } };
    const values = formValues(product);
    expect(values).toMatchObject({ brand_name: 'Acme', color: 'Blue', size: 'M', currency: 'NGN' });
    const body = buildPayload({ ...values, color: '', size: '' }, product, user, ['brand_name', 'color', 'size', 'currency']);
    expect(body).toMatchObject({ band_name: 'Acme', band: { band_name: 'Acme' }, currency: 'NGN', variety_option: null });
  });
});

describe('payloadFor: a save derived from the entity’s own fields', () => {
  const entity = {
    name: 'sample', fields: {
      code: s({ required: true }), percent_off: i(), note: t(), is_active: b({ default: 1 }),
      zip: s({ group: 'address' }), price_currency: s({ wrap: 'code' }), owner_id: i({ creator: true }), made_at: s({ serverSet: true }),
    },
  } as unknown as EntityContract;
  const who = { id: 9, name: 'Ada' };

  it('sends only the entity’s fields: defaults on create, groups nested, wrapped values wrapped', () => {
    const body = payloadFor(entity, { code: 'A1', percent_off: 5, zip: '1000', price_currency: 'USD' }, undefined, who, ['code', 'percent_off', 'note', 'zip', 'price_currency']);
    expect(body).toEqual({ code: 'A1', percent_off: 5, note: null, is_active: 1, address: { zip: '1000' }, price_currency: { code: 'USD' } });
  });

  it('sends a cleared shown field as null, and keeps what the form does not show from the record', () => {
    const record = { id: 3, code: 'A1', percent_off: 5, note: 'x', is_active: 0, address: { zip: '1000' }, price_currency: { code: 'EUR' } };
    const values = { ...formValuesFor(entity, record), note: '' };
    expect(values).toMatchObject({ zip: '1000', price_currency: 'EUR' });
    expect(payloadFor(entity, values, record, who, ['code', 'note'])).toEqual({
      id: 3, code: 'A1', percent_off: 5, note: null, is_active: 0, address: { zip: '1000' }, price_currency: { code: 'EUR' },
    });
  });

  it('is SPEC §3.24’s one payload for an entity that declares it', () => {
    const legacy = { ...entity, onePayload: true } as EntityContract;
    expect(payloadFor(legacy, { code: 'A1' }, undefined, who, ['code'])).toEqual(buildPayload({ code: 'A1' }, undefined, who, ['code']));
    expect(payloadFor(entity, { code: 'A1' }, undefined, who, ['code'])).not.toHaveProperty('premier');
  });
});
