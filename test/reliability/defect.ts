import type { Operation } from './openapi.js';
import type { RawRequest } from './raw-http.js';
import type { SchemaContext } from './schema-values.js';
import type { RecordIds } from './team-records.js';

/** What a generated request is made of: a draft of the request and the defects applied to it. */

export interface FuzzContext extends SchemaContext {
  apiKey: string;
  /** Another team's records: reaching one must answer as if it did not exist. */
  foreign: RecordIds;
}

export interface FuzzRequest extends RawRequest {
  operation: string;
  defects: string[];
}

/** A request being built: the JSON body stays a value until a defect needs its text. */
export interface Draft {
  pathValues: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  json?: unknown;
  text?: string;
}

export interface Defect {
  label: string;
  apply: (draft: Draft) => void;
  /**
   * Replaces the body's text. Two such defects could undo each other (truncating the junk another appended
   * leaves valid JSON), so a request keeps only one, applied last.
   */
  rewritesText?: boolean;
}

export const defect = (label: string, apply: (draft: Draft) => void): Defect => ({ label, apply });
export const textDefect = (label: string, apply: (draft: Draft) => void): Defect => ({
  label,
  apply,
  rewritesText: true,
});
export const hasHeader = (op: Operation, name: string) => op.headers.some((header) => header.name === name);

/** Sets a property as an own data property, even `__proto__` (plain assignment would set the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function bodyObject(draft: Draft): Record<string, unknown> {
  if (draft.json === null || typeof draft.json !== 'object' || Array.isArray(draft.json)) draft.json = {};
  return draft.json as Record<string, unknown>;
}

/** The body's text as it will be sent: a defect that works on text turns the JSON value into text first. */
export function bodyText(draft: Draft): string {
  return draft.text ?? JSON.stringify(draft.json ?? { note: 'x' });
}
