import {
  createParamDecorator,
  ExecutionContext,
  Injectable,
  PipeTransform,
  type ArgumentMetadata,
} from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { CONTROL_CHARACTER } from '../http/dashboard-request.js';

type FormClass<T> = new () => T;

/**
 * A form as submitted: valid, or with the first problem in field order. Either way `form` can be shown again
 * (an invalid one with its text fields cleaned of control characters and of values that are not text).
 */
export type Submitted<T> =
  | { valid: true; form: T }
  | {
      valid: false;
      form: T;
      problem: string;
      /** The field the problem is about (its `name` in the form). */
      field?: string;
    };

const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'g');

/** The top-level field of the first problem (a nested one's too: the form posts top-level fields only). */
function firstField(errors: ValidationError[]): string | undefined {
  return errors[0]?.property;
}

function firstProblem(errors: ValidationError[]): string {
  const [first] = errors;
  const message = first && Object.values(first.constraints ?? {})[0];
  return message ?? (first?.children?.length ? firstProblem(first.children) : 'This form is not valid.');
}

/** What may be shown again of an invalid form: each field in the type of its default, without control characters. */
function shownAgain<T extends object>(type: FormClass<T>, submitted: T): T {
  const shown = new type();
  const fields = shown as Record<string, unknown>;
  for (const [name, fallback] of Object.entries(shown)) {
    const value = (submitted as Record<string, unknown>)[name];
    if (typeof fallback === 'string' && typeof value === 'string') fields[name] = value.replace(CONTROL_CHARACTERS, '');
    else if (Array.isArray(fallback) && Array.isArray(value))
      fields[name] = value.filter((item) => typeof item === 'string' && !CONTROL_CHARACTER.test(item));
  }
  return shown;
}

/**
 * Validates a dashboard form with class-validator, like the API's ValidationPipe, but answers with a
 * `Submitted` instead of throwing, so the handler shows the form's own page again with the problem named.
 * Fields the DTO does not declare (`_csrf`, a button's name) are dropped. The DTO class is the decorator's
 * argument (`@Form(CreateKeyForm)`): the handler's parameter type is the generic `Submitted<…>`.
 */
@Injectable()
export class FormPipe implements PipeTransform {
  transform(body: unknown, metadata: ArgumentMetadata): Submitted<object> {
    const type = metadata.data as unknown as FormClass<object>;
    const plain = body && typeof body === 'object' ? { ...body } : {};
    const form = plainToInstance(type, plain);
    const errors = validateSync(form, { whitelist: true, stopAtFirstError: true, forbidUnknownValues: true });
    if (errors.length === 0) return { valid: true, form };
    return { valid: false, form: shownAgain(type, form), problem: firstProblem(errors), field: firstField(errors) };
  }
}

const FormBody = createParamDecorator((_: unknown, context: ExecutionContext): unknown => {
  return context.switchToHttp().getRequest<{ body?: unknown }>().body;
});

/** The request's form, validated against `type` (a class-validator DTO). */
export const Form = <T extends object>(type: FormClass<T>): ParameterDecorator => FormBody(type, FormPipe);
