import { describe, expect, it } from '@jest/globals';
import { describeFailure } from './all-exceptions.filter.js';
import { ClientGoneError, ConflictError, RecordNotFoundError } from './domain-errors.js';

describe('describeFailure of the domain errors', () => {
  it.each([
    [new RecordNotFoundError('Record'), 404, 'Record not found'],
    [new ConflictError('Already there'), 409, 'Already there'],
    // Never stored for an Idempotency-Key retry (it is not below 500 but is not an answer anyone read).
    [new ClientGoneError('The client went away'), ClientGoneError.STATUS, 'The client went away'],
  ])('%s → its status and its message', (error, status, text) => {
    expect(describeFailure(error)).toEqual({ status, error: text });
  });

  it('gives the client gone the status nginx logs for it', () => {
    expect(ClientGoneError.STATUS).toBe(499);
  });
});
