import type { Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { announcingControllersOf, eventRecordOf, type ConditionalResourceOptions } from '@app/common';

// @nestjs/swagger keeps its metadata keys internal; these are the ones its @ApiTags and @ApiParam write.
const API_TAGS = 'swagger/apiUseTags';
const API_PARAMETERS = 'swagger/apiParameters';

/** A resource whose records have a history: read from its controller, so nothing about it is written twice. */
export interface HistorySubject {
  /** The controller's path: `work-orders`. */
  path: string;
  /** Its OpenAPI tags: the history sits beside the resource's own operations. */
  tags: string[];
  /** The id path parameter, its record's name in words (the 404) and the service that reads the record. */
  resource: ConditionalResourceOptions;
  /** Its name in event types and in the history table: `work_order`. */
  record: string;
  /** The id its other operations show as the path parameter's example (the demo team's example record). */
  exampleId?: string;
}

/** The example the controller documents for its id parameter (`@ApiParam({name, example})` on any route). */
function exampleIdOf(controller: Type, idParam: string): string | undefined {
  const prototype = controller.prototype as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(prototype)) {
    const method = prototype[key];
    if (typeof method !== 'function') continue;
    const parameters = (Reflect.getMetadata(API_PARAMETERS, method) ?? []) as Array<{
      name?: string;
      example?: unknown;
    }>;
    const found = parameters.find((parameter) => parameter.name === idParam && typeof parameter.example === 'string');
    if (found) return found.example as string;
  }
  return undefined;
}

/**
 * The resources of the given modules that have a history: each controller that announces its records' changes
 * (`@ConditionalResource`) at a top-level path. A controller under another record's path (a work order's notes)
 * announces parts of that record, whose entries go on the record's own history.
 */
export function historySubjectsOf(modules: Type[]): HistorySubject[] {
  return announcingControllersOf(modules).flatMap(({ controller, resource }): HistorySubject[] => {
    const path = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    if (path === undefined || path.includes(':')) return [];
    return [
      {
        path,
        tags: (Reflect.getMetadata(API_TAGS, controller) ?? []) as string[],
        resource,
        record: eventRecordOf(resource),
        exampleId: exampleIdOf(controller, resource.idParam),
      },
    ];
  });
}
