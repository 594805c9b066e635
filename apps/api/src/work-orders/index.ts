export * from './work-orders.module.js';
export * from './work-order.entity.js';
export * from './work-orders.service.js';
export { CreateWorkOrderDto } from './dto/create-work-order.dto.js';
