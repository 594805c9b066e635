import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/common';
import { FAVICON_ICO, FAVICON_SVG } from './views/favicon.js';
import { DASHBOARD } from './views/layout.js';

/**
 * The icon: `/favicon.ico`, which browsers request from every site whether a page links it or not (so it is
 * outside `/dashboard` and the API's prefix), and the sharper SVG the dashboard's pages link.
 */
@Public()
@ApiExcludeController()
@Controller()
export class FaviconController {
  @Get('favicon.ico')
  ico(@Res() response: Response): void {
    response.type('image/x-icon').setHeader('Cache-Control', 'public, max-age=86400').send(FAVICON_ICO);
  }

  @Get(`${DASHBOARD.slice(1)}/assets/favicon.svg`)
  svg(@Res() response: Response): void {
    response.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=86400').send(FAVICON_SVG);
  }
}
