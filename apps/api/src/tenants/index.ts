export * from './tenants.module.js';
export * from './tenant.entity.js';
export * from './tenants.service.js';
export { CreateTenantDto } from './dto/create-tenant.dto.js';
export { UpdateTenantDto } from './dto/update-tenant.dto.js';
export { TenantResponse } from './dto/tenant.response.js';
