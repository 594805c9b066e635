export * from './units.module.js';
export * from './units.repository.js';
export * from './unit.entity.js';
