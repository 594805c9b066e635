import { BadRequestException, createParamDecorator, Param, PipeTransform, type ExecutionContext } from '@nestjs/common';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class UuidPipe implements PipeTransform<string, string> {
  constructor(private readonly name: string) {}

  transform(value: string): string {
    if (!UUID.test(value)) throw new BadRequestException(`${this.name} must be a UUID`);
    return value.toLowerCase();
  }
}

/** A path id: anything but a UUID is a 400 naming the parameter (a UUID of no record is a 404 later). */
export const IdParam = (name: string): ParameterDecorator => Param(name, new UuidPipe(name));

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * For an action that takes no body (`POST …/test`): any property is refused like an unknown property anywhere
 * (400 naming it), and nothing is added to the OpenAPI document.
 */
export const NoBody = createParamDecorator((_: unknown, context: ExecutionContext): void => {
  const body: unknown = context.switchToHttp().getRequest<{ body?: unknown }>().body;
  const keys = body !== null && typeof body === 'object' ? Object.keys(body) : [];
  if (keys.length > 0) {
    throw new BadRequestException(keys.map((key) => `property ${key} should not exist`).join('; '));
  }
});
