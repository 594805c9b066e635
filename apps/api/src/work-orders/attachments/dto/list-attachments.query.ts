import { PagingQuery } from '@app/common';

/** `page` and `pageSize`; attachments list oldest first, with no sort, search or filter. */
export class ListAttachmentsQuery extends PagingQuery {}
