import { PageQuery } from '@app/common';

/** `search` covers first name, last name, email, phone number and the `fullAddress` of linked units. */
export class ListTenantsQuery extends PageQuery {}
