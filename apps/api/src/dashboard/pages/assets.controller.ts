import { Controller, Get, Header, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@app/common';
import { DashboardErrorFilter } from '../http/dashboard-error.filter.js';
import { DASHBOARD_CSS, DASHBOARD_JS } from '../views/assets.js';

/** The dashboard's one stylesheet and one script, from the same origin (the pages' CSP allows nothing else). */
@Public()
@ApiExcludeController()
@UseFilters(DashboardErrorFilter)
@Controller('dashboard/assets')
export class AssetsController {
  @Get('dashboard.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  css(): string {
    return DASHBOARD_CSS;
  }

  @Get('dashboard.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  js(): string {
    return DASHBOARD_JS;
  }
}
