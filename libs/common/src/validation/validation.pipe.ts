import { ArgumentMetadata, BadRequestException, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { describeValidationErrors, inQueryWords } from './validation-errors.js';

/** class-validator's findings, before they are put into words (which depend on where the value came from). */
class InvalidInput extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('invalid input');
  }
}

/** `ValidationPipe` whose refusal names query parameters as such (`query parameter foo is not allowed`). */
class ApiValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error;
      const lines = describeValidationErrors(error.errors);
      throw new BadRequestException((metadata.type === 'query' ? lines.map(inQueryWords) : lines).join('; '));
    }
  }
}

/**
 * The one validation setup: unknown properties and query parameters are refused, bodies become DTO
 * instances, and every problem is reported in one `{error}` line joined with `; `.
 */
export function createValidationPipe(): ValidationPipe {
  return new ApiValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    // One rule per field: the first that fails (a missing field is not also "too long").
    stopAtFirstError: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new InvalidInput(errors),
  });
}
