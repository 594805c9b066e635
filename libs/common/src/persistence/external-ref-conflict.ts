import { QueryFailedError } from 'typeorm';
import { ConflictError } from '../errors/domain-errors.js';

/** The unique index that keeps a table's `externalRef`s unique per team, by convention. */
export const externalRefIndexOf = (table: string): string => `${table}_external_ref_key`;

/**
 * A write's failure as the caller should see it: a violation of the table's `externalRef` index (a second record
 * of the team with the value, including one that committed meanwhile) becomes a 409 naming the value; anything
 * else is returned as it is. `externalRef` is the value the write tried to store.
 */
export function externalRefConflict(
  error: unknown,
  table: string,
  record: string | undefined,
  externalRef: unknown,
): unknown {
  if (!(error instanceof QueryFailedError)) return error;
  const { code, constraint } = error.driverError as { code?: string; constraint?: string };
  if (code !== '23505' || constraint !== externalRefIndexOf(table)) return error;
  return new ConflictError(
    `externalRef ${JSON.stringify(externalRef)} is already used by another ${record ?? 'record'} of this team`,
  );
}
