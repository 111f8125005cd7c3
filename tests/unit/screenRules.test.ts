import { describe, expect, it } from 'vitest';
import { cleanSearch, searchProblem, searchText } from '../../src/screens/rules';
import { LIMITS } from '../spec';
import { buildPayload, formValues, toCsv } from '../../contract';

describe('search text (SPEC §5)', () => {
  it('keeps letters, digits, dashes, underscores and spaces only', () => {
    expect(cleanSearch("Sam's <Store> #1 - a_b%;")).toBe('Sams Store 1 - a_b');
    expect(cleanSearch("'); DROP TABLE shops;--")).toBe(' DROP TABLE shops--');
  });
  it('needs 2 characters after cleaning', () => {
    expect(searchText('a')).toBeNull();
    expect(searchText('a!!')).toBeNull();
    expect(searchText('  ')).toBeNull();
    expect(searchText('ab')).toBe('ab');
    expect(searchText(' Store 1 ')).toBe('Store 1');
  });
  it(`says why a text is not sent: under ${LIMITS.minSearch} characters, or over 100, after cleaning`, () => {
    expect(searchProblem('a'.repeat(LIMITS.minSearch - 1))).toBe('management.search_too_short');
    expect(searchProblem(`${'a'.repeat(LIMITS.minSearch - 1)}%% `)).toBe('management.search_too_short');
    expect(searchProblem('a'.repeat(LIMITS.minSearch))).toBeNull();
    expect(searchProblem('a'.repeat(100))).toBeNull();
    expect(searchProblem(`${'a'.repeat(100)}!!!`)).toBeNull();
    expect(searchProblem('a'.repeat(101))).toBe('management.search_too_long');
  });
});

describe('CSV export (RFC 4180)', () => {
  it('quotes fields holding commas, quotes or line breaks, and defuses formulas', () => {
    expect(toCsv([['id', 'name'], ['1', 'Acme, Ltd'], ['2', 'say "hi"'], ['3', 'a\nb'], ['4', 'a\rb']])).toBe(
      'id,name\r\n1,"Acme, Ltd"\r\n2,"say ""hi"""\r\n3,"a\nb"\r\n4,"a\rb"',
    );
    for (const lead of ['=', '+', '-', '@', '\t']) expect(toCsv([[`${lead}1+1`]])).toBe(`'${lead}1+1`);
    // A plain number stays a number, negative ones too (statements' amounts); anything more is defused.
    expect(toCsv([['-12.34', '-1', '-1e3', '-']])).toBe("-12.34,-1,'-1e3,'-");
    expect(toCsv([['\r1']])).toBe(`"'\r1"`);
    expect(toCsv([['a=1', 'b-2']])).toBe('a=1,b-2');
    expect(toCsv([])).toBe('');
  });
});

const user = { id: 7, name: 'Sam Seller' };

describe('generic payload (SPEC §3.24)', () => {
  it('nests every group and applies the defaults of SPEC §9.3 for a new record', () => {
    const payload = buildPayload(
      { name: 'Shop', street_name: '1 Road', zip: 'Z1', country: 'Liberia', state: 'Montserrado', city: 'Monrovia', bank_name: 'B', account_number: '9' },
      undefined,
      user,
    );
    expect(payload).toMatchObject({
      owner_id: 7,
      name: 'Shop',
      address: { street_name: '1 Road', zip: 'Z1', country: 'Liberia', state: 'Montserrado', city: 'Monrovia' },
      bank: { bank_name: 'B', account_number: '9' },
      paypal: { paypal_email: '', name_of_seller: '' },
      price: 0, sale_price: 0, quantity: 1, premier: 'no', product_type: 'new', variety_option: null, serial: null, product_id: 0,
    });
    expect(payload).not.toHaveProperty('id');
  });

  it("names the seller of a paypal account after the current user, only when an email is given", () => {
    expect(buildPayload({ paypal_email: 'p@example.com' }, undefined, user).paypal).toEqual({ paypal_email: 'p@example.com', name_of_seller: 'Sam Seller' });
    expect(buildPayload({ paypal_email: '' }, undefined, user).paypal).toEqual({ paypal_email: '', name_of_seller: '' });
  });

  it('takes what the form did not enter from the record being edited, nested groups included', () => {
    const record = {
      id: 3, name: 'Old', description: 'Kept', category: { id: 2, name: 'Fashion' }, category_id: 2,
      address: { street_name: 'Old Road', zip: 'Z', country: 'Nigeria', city: 'Lagos', state: 'Lagos' },
      bank: { bank_name: 'Old Bank', account_number: '1' }, paypal: { paypal_email: 'old@example.com', name_of_seller: 'X' },
      premier: 'yes', variety_option: { color: 'Red', size: 'L' },
    };
    const payload = buildPayload({ name: 'New', zip: 'NEW' }, record, user);
    expect(payload).toMatchObject({
      id: 3, name: 'New', description: 'Kept', category_id: 2,
      address: { street_name: 'Old Road', zip: 'NEW', country: 'Nigeria' },
      bank: { bank_name: 'Old Bank' },
      paypal: { paypal_email: 'old@example.com', name_of_seller: 'Sam Seller' },
      premier: 'yes', variety_option: { color: 'Red', size: 'L' },
    });
  });

  it('builds the variety option and the band from the colour, size and brand inputs', () => {
    const payload = buildPayload({ color: 'Blue', size: 'M', brand_name: 'Acme' }, undefined, user);
    expect(payload).toMatchObject({ variety_option: { color: 'Blue', size: 'M' }, band: { band_name: 'Acme' }, band_name: 'Acme' });
  });

  it("names a category from its Name picker and passes the form's own fields through", () => {
    const payload = buildPayload({ category_name: 'Toys', subcategory_name: 'Dolls', commission_currency: 'USD', location_A: 'x' }, { id: 1, name: 'Old' }, user, ['category_name', 'location_A']);
    expect(payload).toMatchObject({ id: 1, name: 'Toys', category_name: 'Toys', subcategory_name: 'Dolls', commission_currency: 'USD', location_A: 'x' });
    expect(buildPayload({ location_A: 'x' }, undefined, user)).not.toHaveProperty('location_A');
  });

  it('flattens a record for its form', () => {
    expect(formValues({ id: 1, address: { zip: 'Z' }, bank: { bank_name: 'B' }, category: { id: 4, name: 'C' } })).toMatchObject({
      zip: 'Z', bank_name: 'B', category_id: 4,
    });
    expect(formValues({ id: 1, name: 'Fashion' }, [{ source: 'category_name', from: 'name' }])).toMatchObject({ category_name: 'Fashion' });
  });
});
