/**
 * The generic payload of SPEC §3.24 with DESIGN D13: a field the form shows is sent as the user left
 * it, empty included; fields it does not show fall back to the record, then to §3.24's defaults.
 */
import { describe, expect, it } from 'vitest';
import { buildPayload, formValues } from '../../src/screens/payload';

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
