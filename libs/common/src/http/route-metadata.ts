import type { ExecutionContext } from '@nestjs/common';

/**
 * A value derived from a route's decorator metadata (its controller class and handler), read once per route and then
 * remembered. The metadata is fixed once the classes are defined, and each `Reflector` lookup (reflect-metadata
 * walking the prototype chain, handler then class) is paid on every request otherwise: the global guards made
 * five of them for each one-record read. Keyed by class, then handler, since one handler function can serve
 * several controller classes (a subclass made per resource), whose metadata differs.
 */
export class PerRoute<T> {
  private readonly values = new WeakMap<object, Map<object, T>>();

  constructor(private readonly read: (context: ExecutionContext) => T) {}

  of(context: ExecutionContext): T {
    const controller = context.getClass();
    const handler = context.getHandler();
    let handlers = this.values.get(controller);
    if (!handlers) {
      handlers = new Map();
      this.values.set(controller, handlers);
    }
    if (handlers.has(handler)) return handlers.get(handler) as T;
    const value = this.read(context);
    handlers.set(handler, value);
    return value;
  }
}
