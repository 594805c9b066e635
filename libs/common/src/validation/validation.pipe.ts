import { BadRequestException, ValidationPipe } from '@nestjs/common';
import { describeValidationErrors } from './validation-errors.js';

/**
 * The one validation setup: unknown properties and query parameters are refused, bodies become DTO
 * instances, and every problem is reported in one `{error}` line joined with `; `.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    // One rule per field: the first that fails (a missing field is not also "too long").
    stopAtFirstError: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new BadRequestException(describeValidationErrors(errors).join('; ')),
  });
}
