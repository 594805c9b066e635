import { Controller, Get, Inject, Query, type Type } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorsWith, ApiPageResponse, Authenticated, IdParam, PagingQuery, TeamId, type Page } from '@app/common';
import { HistoryEntryResponse } from './dto/history-entry.response.js';
import type { HistorySubject } from './history-subjects.js';
import { HistoryService } from './history.service.js';

const pascal = (path: string): string =>
  path
    .split(/[^a-zA-Z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/**
 * `GET /v1/<path>/{<idParam>}/history` for one resource, documented under its tag with its example id: a
 * controller class made per registered resource (history.module.ts), so a generated resource has one too.
 */
export function historyControllerOf(subject: HistorySubject): Type {
  const { path, tags, resource, exampleId } = subject;
  const { idParam, name } = resource;
  const lower = name.toLowerCase();

  @ApiTags(...tags)
  @Authenticated()
  @Controller(path)
  class HistoryController {
    constructor(@Inject(HistoryService) private readonly history: HistoryService) {}

    @Get(`:${idParam}/history`)
    @ApiOperation({
      summary: `List a ${lower}'s history`,
      description:
        `Every change the ${lower} went through since it was created, newest first (in the reverse of the order ` +
        'the changes committed), kept as long as it lives: `created`, then `updated` with each changed field ' +
        '`{from, to}`, each naming its `actor`. See docs/history.md.',
    })
    @ApiParam({ name: idParam, format: 'uuid', ...(exampleId ? { example: exampleId } : {}) })
    @ApiPageResponse(HistoryEntryResponse)
    @ApiErrorsWith({ 400: `${idParam} must be a UUID`, 404: `${name} not found` }, 400, 404)
    list(
      @TeamId() teamId: string,
      @IdParam(idParam) id: string,
      @Query() query: PagingQuery,
    ): Promise<Page<HistoryEntryResponse>> {
      return this.history.page(teamId, subject, id, query);
    }
  }
  // The class name makes the operation's id (`WorkOrdersHistoryController_list`): one per resource.
  Object.defineProperty(HistoryController, 'name', { value: `${pascal(path)}HistoryController` });
  return HistoryController;
}
