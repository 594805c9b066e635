export { ExportsModule } from './exports.module.js';
export { ResourceCsvs } from './resource-csvs.js';
export { CSV_CONTENT_TYPE } from './csv-export.interceptor.js';
