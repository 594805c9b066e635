export * from './resource-csv-columns.js';
