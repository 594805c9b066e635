import { PageQuery } from '@app/common';

/** `search` covers `fullAddress`. */
export class ListUnitsQuery extends PageQuery {}
