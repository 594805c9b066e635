import { PagingQuery } from '@app/common';

/** `page` and `pageSize` of the endpoint and delivery lists (newest first). */
export class WebhookPageQuery extends PagingQuery {}
