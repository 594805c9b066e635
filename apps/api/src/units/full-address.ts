import type { Unit } from './unit.entity.js';

/** Every address part, in the order the parts appear in `fullAddress` (CONTRACT "Unit"). */
export const ADDRESS_PARTS = ['addressLine1', 'addressLine2', 'area', 'city', 'county', 'postcode', 'country'] as const;

export type AddressParts = Pick<Unit, (typeof ADDRESS_PARTS)[number]>;

/** The non-empty parts joined by ", "; stored so that search can use the trigram index on `full_address`. */
export function composeFullAddress(parts: AddressParts): string {
  return ADDRESS_PARTS.map((key) => parts[key])
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join(', ');
}
