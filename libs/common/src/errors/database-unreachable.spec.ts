import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { DATABASE_UNAVAILABLE, describeFailure, isDatabaseUnreachable } from './all-exceptions.filter.js';

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });
const queryFailed = (code: string, message = 'terminating connection due to administrator command') =>
  new QueryFailedError('SELECT 1', [], withCode(message, code));

describe('an unreachable database is a 503, never a 500', () => {
  it.each([
    withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    queryFailed('57P01'),
    queryFailed('57P03', 'the database system is starting up'),
    queryFailed('53300', 'sorry, too many clients already'),
    withCode('connection failure', '08006'),
    // A transaction whose connection the server dropped: its next statement, or its rollback.
    new QueryRunnerProviderAlreadyReleasedError(),
    new QueryRunnerAlreadyReleasedError(),
  ])('%s', (error) => {
    expect(isDatabaseUnreachable(error)).toBe(true);
    expect(describeFailure(error)).toEqual({ status: 503, error: DATABASE_UNAVAILABLE });
  });

  it('leaves other failures alone', () => {
    expect(isDatabaseUnreachable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnreachable(queryFailed('23505', 'duplicate key'))).toBe(false);
    expect(describeFailure(queryFailed('23503', 'fk'))).toEqual({
      status: 400,
      error: 'A referenced record does not exist',
    });
  });
});
