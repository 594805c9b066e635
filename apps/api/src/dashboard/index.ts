export { DashboardModule } from './dashboard.module.js';
export { DASHBOARD } from './views/layout.js';
export * from './accounts/index.js';
export { dashboardNotFoundPage } from './views/pages.js';
