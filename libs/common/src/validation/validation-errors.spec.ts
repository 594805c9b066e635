import { describe, expect, it } from '@jest/globals';
import { BadRequestException, type ArgumentMetadata } from '@nestjs/common';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsArray,
  IsNotEmpty,
  IsString,
  MaxLength,
  ValidateNested,
  validateSync,
  type ValidationError,
} from 'class-validator';
import { describeValidationErrors } from './validation-errors.js';
import { createValidationPipe } from './validation.pipe.js';

class Certification {
  @IsString()
  @IsNotEmpty()
  type!: string;
}

class Supplier {
  @IsString()
  @MaxLength(5)
  companyName!: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Certification)
  certifications!: Certification[];
}

function validate(plain: object): ValidationError[] {
  return validateSync(plainToInstance(Supplier, plain), {
    whitelist: true,
    forbidNonWhitelisted: true,
    stopAtFirstError: true,
  });
}

describe(describeValidationErrors.name, () => {
  it('names a top-level field and its rule', () => {
    expect(describeValidationErrors(validate({ companyName: 'too long', certifications: [] }))).toEqual([
      'companyName must be shorter than or equal to 5 characters',
    ]);
  });

  it('says a required field left out is required, at the top and inside nested items', () => {
    expect(describeValidationErrors(validate({ certifications: [{}] })).sort()).toEqual([
      'certifications.0.type is required',
      'companyName is required',
    ]);
    // Sent, even as null: one of the rules a value must meet, not "required".
    const sent = describeValidationErrors(validate({ companyName: null, certifications: [] }));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^companyName must /);
  });

  it('names a nested field by its full path', () => {
    const lines = describeValidationErrors(
      validate({ companyName: 'A', certifications: [{ type: 'ok' }, { type: '' }] }),
    );
    expect(lines).toEqual(['certifications.1.type should not be empty']);
  });

  it('names an unknown property by its path, at the top and inside nested items', () => {
    const lines = describeValidationErrors(
      validate({ companyName: 'A', id: 'x', certifications: [{ type: 'ok', rating: 5 }] }),
    );
    expect(lines.sort()).toEqual(['property certifications.0.rating should not exist', 'property id should not exist']);
  });

  it('prefixes the path to a message that does not start with the field name', () => {
    const error: ValidationError = {
      property: 'insurance',
      children: [
        {
          property: '0',
          children: [{ property: 'amount', constraints: { custom: 'must be positive' }, children: [] }],
        },
      ],
    };
    expect(describeValidationErrors([error])).toEqual(['insurance.0.amount: must be positive']);
  });

  it('keeps the item a rule names (`insurance.0 must be an object`) under the full path', () => {
    const error: ValidationError = {
      property: 'insurance',
      constraints: { isObject: 'insurance.0 must be an object' },
      children: [],
    };
    expect(describeValidationErrors([error])).toEqual(['insurance.0 must be an object']);
    expect(describeValidationErrors([error], 'supplier')).toEqual(['supplier.insurance.0 must be an object']);
  });

  it('treats the field name as a prefix only when a space follows it', () => {
    const error: ValidationError = {
      property: 'name',
      constraints: { isString: 'names are odd' },
      children: [],
    };
    expect(describeValidationErrors([error], 'owner')).toEqual(['owner.name: names are odd']);
  });

  it('returns nothing for no errors', () => {
    expect(describeValidationErrors([])).toEqual([]);
  });
});

describe(createValidationPipe.name, () => {
  const metadata: ArgumentMetadata = { type: 'body', metatype: Supplier };

  it('joins several problems with "; " in one BadRequestException', async () => {
    const pipe = createValidationPipe();
    const failure = await pipe
      .transform({ companyName: 'too long', certifications: [{ type: '' }], extra: true }, metadata)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(BadRequestException);
    const message = (failure as BadRequestException).message;
    expect(message.split('; ').sort()).toEqual([
      'certifications.0.type should not be empty',
      'companyName must be shorter than or equal to 5 characters',
      'property extra should not exist',
    ]);
  });

  it('hands a valid body on as an instance of the DTO', async () => {
    const value: unknown = await createValidationPipe().transform(
      { companyName: 'Acme', certifications: [{ type: 'Gas Safe' }] },
      metadata,
    );
    expect(value).toBeInstanceOf(Supplier);
    expect((value as Supplier).certifications[0]).toBeInstanceOf(Certification);
  });
});
