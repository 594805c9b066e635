import { ArgumentMetadata, BadRequestException, PipeTransform, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { TrimStringsPipe } from './trim-strings.pipe.js';
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

  /**
   * What `transform` answers when it has nothing to validate (a path id, a custom decorator's value such as the
   * team): `ValidationPipe`'s own first step, given back at once instead of through its two promises. `VALIDATES`
   * when the value must go through `transform`.
   */
  unvalidated(value: unknown, metadata: ArgumentMetadata): unknown {
    if (this.expectedType || (metadata.metatype && this.toValidate(metadata))) return VALIDATES;
    return this.isTransformEnabled ? this.transformPrimitive(value, metadata) : value;
  }
}

const VALIDATES = Symbol('validates');

/**
 * The one validation setup: unknown properties and query parameters are refused, bodies become DTO
 * instances, and every problem is reported in one `{error}` line joined with `; `.
 */
export function createValidationPipe(): ValidationPipe {
  return createApiValidationPipe();
}

function createApiValidationPipe(): ApiValidationPipe {
  return new ApiValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    // One rule per field: the first that fails (a missing field is not also "too long").
    stopAtFirstError: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The value is read only to tell a field left out ("is required"; describeValidationErrors), never echoed.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => new InvalidInput(errors),
  });
}

/**
 * The app's one global pipe: every string trimmed (`TrimStringsPipe`), then validated (`createValidationPipe`), as
 * the two pipes did in that order. One pipe, and synchronous for a value with nothing to validate (a path id, the
 * team): Nest awaits each global pipe for every parameter of every request, and the two pipes' promises (three
 * per parameter) were most of a one-record read's pipe work.
 */
export class ApiInputPipe implements PipeTransform {
  private readonly trim = new TrimStringsPipe();
  private readonly validation = createApiValidationPipe();

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const trimmed = this.trim.transform(value, metadata);
    const unvalidated = this.validation.unvalidated(trimmed, metadata);
    return unvalidated === VALIDATES ? this.validation.transform(trimmed, metadata) : unvalidated;
  }
}
