import { expect } from '@jest/globals';
import type { Response } from 'supertest';

export const ISO_WITH_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Exactly `{error}` with the given status; returns the text for further checks. */
export function expectError(response: Response, status: number): string {
  expect({ status: response.status, keys: Object.keys(response.body as object) }).toEqual({ status, keys: ['error'] });
  const { error } = response.body as { error: unknown };
  expect(typeof error).toBe('string');
  return error as string;
}

/** A 400 whose text starts by naming `field` (nested fields by path, e.g. `certifications.0.type`). */
export function expectFieldError(response: Response, field: string): string {
  const error = expectError(response, 400);
  const named = [`${field} `, `${field}: `, `${field}.`, `property ${field} `, `each value in ${field} `].some(
    (prefix) => error.startsWith(prefix),
  );
  expect({ named, error }).toEqual({ named: true, error });
  return error;
}

/** The ids of one page of a list response, in order, after checking it succeeded. */
export function idsOf(response: Response): string[] {
  expect(response.status).toBe(200);
  return (response.body.data as { id: string }[]).map((record) => record.id);
}

/** The ids in the order every list promises: newest first, ties by id descending. */
export const newestFirst = (records: { id: string; createdAt: string }[]): string[] =>
  [...records]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
    .map((record) => record.id);
