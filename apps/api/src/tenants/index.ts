export * from './tenants.module.js';
export * from './tenant.entity.js';
