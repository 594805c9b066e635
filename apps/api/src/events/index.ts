export { EventsModule } from './events.module.js';
export * from './events.store.js';
export { EventsCleanup } from './events.cleanup.js';
export { EventsInterceptor } from './events.interceptor.js';
