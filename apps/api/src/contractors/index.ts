export * from './contractors.module.js';
export * from './contractor.entity.js';
