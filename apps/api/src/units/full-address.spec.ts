import { describe, expect, it } from '@jest/globals';
import { composeFullAddress, type AddressParts } from './full-address.js';

const required = { addressLine1: '1 Mill Lane', city: 'Leeds', postcode: 'LS1 4AP', country: 'UK' };
const none = { addressLine2: null, area: null, county: null };

describe(composeFullAddress.name, () => {
  it('joins every part in the order line 1, line 2, area, city, county, postcode, country', () => {
    const parts: AddressParts = { ...required, addressLine2: 'Flat 3', area: 'Holbeck', county: 'West Yorkshire' };
    expect(composeFullAddress(parts)).toBe('1 Mill Lane, Flat 3, Holbeck, Leeds, West Yorkshire, LS1 4AP, UK');
  });

  it('leaves out null and empty parts without doubling the separator', () => {
    expect(composeFullAddress({ ...required, ...none })).toBe('1 Mill Lane, Leeds, LS1 4AP, UK');
    expect(composeFullAddress({ ...required, ...none, addressLine2: '', county: 'Yorkshire' })).toBe(
      '1 Mill Lane, Leeds, Yorkshire, LS1 4AP, UK',
    );
  });
});
