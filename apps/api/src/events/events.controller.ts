import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, Authenticated, RATE_LIMIT_HEADERS, TeamId } from '@app/common';
import { EventsStore } from './events.store.js';
import { EventListResponse } from './dto/event.response.js';
import { ListEventsQuery } from './dto/list-events.query.js';
import { eventRecordNames } from '../resources.js';

@ApiTags('Events')
@Authenticated()
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsStore) {}

  @Get()
  @ApiOperation({
    summary: 'Follow changes (the events feed)',
    description:
      `Every committed change of a ${eventRecordNames('or')}, once, in commit order ` +
      '(`<record>.created|updated|deleted`). Keep passing `pagination.next` as `after`: a reader that does sees ' +
      'every event of its team exactly once, including one whose transaction began earlier but committed later ' +
      'than one already read. `data.object` is the record as GET one returned it after the change (`{"id"}` for ' +
      '`.deleted`); `.updated` events add `previousAttributes`. Events are kept 30 days: an older `after` is 410. ' +
      'A read: it counts against the requests limit only. See docs/events.md.',
  })
  @ApiOkResponse({ type: EventListResponse, headers: RATE_LIMIT_HEADERS })
  @ApiErrors(400, 410)
  async list(@TeamId() teamId: string, @Query() query: ListEventsQuery): Promise<EventListResponse> {
    const { events, hasMore } = await this.events.page(teamId, query.after, query.types, query.limit);
    const last = events.at(-1);
    return {
      data: events,
      pagination: { limit: query.limit, next: last ? last.id : (query.after ?? null), hasMore },
    };
  }
}
