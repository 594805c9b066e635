export * from './work-orders.module.js';
export * from './work-order.entity.js';
export * from './work-orders.service.js';
export { CreateWorkOrderDto } from './dto/create-work-order.dto.js';
export { WorkOrderNote } from './notes/work-order-note.entity.js';
export { WorkOrderNotesService } from './notes/work-order-notes.service.js';
export { CreateNoteDto } from './notes/dto/create-note.dto.js';
