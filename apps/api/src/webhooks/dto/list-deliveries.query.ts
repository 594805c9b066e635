import { OmitType } from '@nestjs/swagger';
import { PageQuery } from '@app/common';

/**
 * The endpoint and delivery lists' query: `page`, `pageSize`, `sort` and `updatedSince`, as every list takes
 * (newest first by default); they have no `search`, and no `externalRef` (endpoints and deliveries have none).
 */
export class WebhookPageQuery extends OmitType(PageQuery, ['search', 'externalRef'] as const) {}
