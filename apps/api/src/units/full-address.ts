import type { Unit } from './unit.entity.js';

export type AddressParts = Pick<
  Unit,
  'addressLine1' | 'addressLine2' | 'area' | 'city' | 'county' | 'postcode' | 'country'
>;

/** The order in which the parts appear in `fullAddress` (CONTRACT "Unit"). */
const ADDRESS_ORDER = ['addressLine1', 'addressLine2', 'area', 'city', 'county', 'postcode', 'country'] as const;

/** The non-empty parts joined by ", "; stored so that search can use the trigram index on `full_address`. */
export function composeFullAddress(parts: AddressParts): string {
  return ADDRESS_ORDER.map((key) => parts[key])
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join(', ');
}
