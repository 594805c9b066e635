export * from './landlords.module.js';
export * from './landlord.entity.js';
