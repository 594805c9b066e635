export * from './work-orders.module.js';
export * from './work-order.entity.js';
export * from './work-orders.service.js';
