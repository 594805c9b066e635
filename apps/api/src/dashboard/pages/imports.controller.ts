import { Get, Param, Query } from '@nestjs/common';
import { DomainError, isUuid } from '@app/common';
import { ImportsService } from '../../imports/index.js';
import { DashboardError } from '../http/dashboard-error.filter.js';
import { DashboardPages } from '../http/dashboard-pages.decorator.js';
import { Session, viewerOf } from '../http/session.guard.js';
import { importPage, importsPage } from '../views/import-pages.js';

/** Imports listed per page, and the failed rows of one import per page. */
export const IMPORTS_PAGE_SIZE = 20;
export const IMPORT_ERRORS_PAGE_SIZE = 50;

/** `?page=` as a page number from 1; anything else (absent, `0`, `x`, too large) is the first page. */
function pageNumber(raw: string | undefined): number {
  return raw !== undefined && /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 1;
}

/** Imports (issue 25): the team's imports with their progress, and one import's page with its failed rows. */
@DashboardPages('imports', { signedIn: true })
export class ImportsPagesController {
  constructor(private readonly imports: ImportsService) {}

  @Get()
  async list(@Session() session: Session, @Query('page') page?: string): Promise<string> {
    const listed = await this.imports.list(session.teamId, pageNumber(page), IMPORTS_PAGE_SIZE);
    return importsPage({ viewer: viewerOf(session), imports: listed.data, pagination: listed.pagination });
  }

  @Get(':id')
  async show(@Session() session: Session, @Param('id') rawId: string, @Query('page') page?: string): Promise<string> {
    const notFound = () =>
      new DashboardError(404, 'Import not found', 'There is no such import in your team.', viewerOf(session));
    if (!isUuid(rawId)) throw notFound();
    const id = rawId.toLowerCase();
    try {
      const item = await this.imports.get(session.teamId, id);
      const errors = await this.imports.errors(session.teamId, id, pageNumber(page), IMPORT_ERRORS_PAGE_SIZE);
      return importPage({ viewer: viewerOf(session), item, errors: errors.data, pagination: errors.pagination });
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw notFound();
      throw error;
    }
  }
}
