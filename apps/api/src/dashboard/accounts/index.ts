export { AccountsModule } from './accounts.module.js';
export * from './accounts.service.js';
export * from './hashing-gate.js';
export * from './password.js';
export * from './password-hasher.js';
export * from './password-policy.js';
