import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  CommaList,
  EmptyToNull,
  IsDateTimeInput,
  NormalizeDateTime,
  parseDateTimeInput,
  ToInteger,
} from './transforms.js';

const iso = (value: string): string | undefined => parseDateTimeInput(value)?.toISOString();

describe(parseDateTimeInput.name, () => {
  it('reads a date alone as midnight UTC', () => {
    expect(iso('2027-01-31')).toBe('2027-01-31T00:00:00.000Z');
  });

  it.each([
    ['2027-01-31T10:15:30Z', '2027-01-31T10:15:30.000Z'],
    ['2027-01-31T10:15:30.5Z', '2027-01-31T10:15:30.500Z'],
    ['2027-01-31T10:15:30+02:00', '2027-01-31T08:15:30.000Z'],
    ['2027-01-31T10:15:30-05:30', '2027-01-31T15:45:30.000Z'],
    ['2027-01-31T23:30:00-05:00', '2027-02-01T04:30:00.000Z'],
    ['2027-01-31T10:15Z', '2027-01-31T10:15:00.000Z'],
  ])('converts %s to UTC', (input, expected) => {
    expect(iso(input)).toBe(expected);
  });

  it('accepts 29 February only in a leap year', () => {
    expect(iso('2028-02-29')).toBe('2028-02-29T00:00:00.000Z');
    expect(iso('2027-02-29')).toBeUndefined();
  });

  it.each([
    '2027-02-31',
    '2027-04-31',
    '2027-02-31T10:00:00Z',
    '2027-04-31T23:00:00-02:00',
    '2027-13-01',
    '2027-00-10',
  ])('rejects the impossible date %s instead of rolling it over', (input) => {
    expect(parseDateTimeInput(input)).toBeUndefined();
  });

  it.each([
    '',
    'tomorrow',
    '2027-1-5',
    '31/01/2027',
    ' 2027-01-31',
    '2027-01-31T10:00:00',
    '2027-01-31T25:00:00Z',
    '2027-01-31T10:00:00+99:99',
    '1738300000000',
    '2027-01-31Z',
  ])('rejects %j', (input) => {
    expect(parseDateTimeInput(input)).toBeUndefined();
  });
});

class Certification {
  @NormalizeDateTime()
  @IsDateTimeInput()
  expiryDate!: unknown;
}

describe('NormalizeDateTime + IsDateTimeInput', () => {
  const run = (expiryDate: unknown) => {
    const instance = plainToInstance(Certification, { expiryDate });
    return {
      value: instance.expiryDate,
      errors: validateSync(instance).flatMap((e) => Object.values(e.constraints ?? {})),
    };
  };

  it('stores a valid input as UTC ISO 8601 with milliseconds', () => {
    expect(run('2027-01-31T10:00:00+01:00')).toEqual({ value: '2027-01-31T09:00:00.000Z', errors: [] });
  });

  it('turns an empty string into null', () => {
    expect(run('').value).toBeNull();
  });

  it('leaves an invalid input for the validator, which names the field and the rule', () => {
    expect(run('2027-02-31')).toEqual({
      value: '2027-02-31',
      errors: ['expiryDate must be an ISO 8601 date-time or a date (YYYY-MM-DD)'],
    });
    expect(run(20270131).errors).toHaveLength(1);
  });
});

class Query {
  @ToInteger()
  page!: unknown;

  @CommaList()
  status!: unknown;

  @EmptyToNull()
  notes!: unknown;
}

describe('query and body transforms', () => {
  const transform = (plain: object): Query => plainToInstance(Query, plain);

  it('ToInteger turns digits into a number and leaves anything else as text', () => {
    expect(transform({ page: '12' }).page).toBe(12);
    expect(transform({ page: '1.5' }).page).toBe('1.5');
    expect(transform({ page: '-1' }).page).toBe(-1);
    expect(transform({ page: '--1' }).page).toBe('--1');
    expect(transform({ page: '+2' }).page).toBe('+2');
    expect(transform({ page: '1e3' }).page).toBe('1e3');
    expect(transform({ page: '9999999999' }).page).toBe('9999999999');
  });

  it('CommaList splits, trims and drops empty parts', () => {
    expect(transform({ status: 'reported, in_progress,,' }).status).toEqual(['reported', 'in_progress']);
    expect(transform({ status: 'active' }).status).toEqual(['active']);
  });

  it('CommaList reads a list with no parts left as no filter (undefined), never as one that matches nothing', () => {
    expect(transform({ status: '' }).status).toBeUndefined();
    expect(transform({ status: ' , ,' }).status).toBeUndefined();
    // Repeated: each value a list of its own, empty ones dropped.
    expect(transform({ status: ['', ''] }).status).toBeUndefined();
    expect(transform({ status: ['reported', 'in_progress,completed', ''] }).status).toEqual([
      'reported',
      'in_progress',
      'completed',
    ]);
  });

  it('EmptyToNull stores an empty string as null and keeps other values', () => {
    expect(transform({ notes: '' }).notes).toBeNull();
    expect(transform({ notes: 'x' }).notes).toBe('x');
  });
});
