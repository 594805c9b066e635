export * from './dto/tenant-summary.response.js';
export * from './dto/unit-summary.response.js';
export * from './tenancies.module.js';
export * from './tenancies.repository.js';
export * from './tenancy.entity.js';
