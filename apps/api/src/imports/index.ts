export * from './imports.module.js';
export * from './imports.service.js';
export * from './import-runner.js';
export { ImportResponse, ImportErrorResponse } from './dto/import.response.js';
