/** Failures the services raise; the exception filter maps each kind to one HTTP status. */
export type DomainErrorKind = 'not_found' | 'invalid_reference' | 'conflict' | 'unavailable' | 'gone' | 'client_gone';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The input field the failure is about, when one is (a form shows it there); the API's answer names it in words. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** `404 {"error":"<Name> not found"}`: a record of another team is answered exactly as a missing one. */
export class RecordNotFoundError extends DomainError {
  constructor(resource: string) {
    super('not_found', `${resource} not found`);
  }
}

/** A body links to a record that does not exist for the caller's team (an `…Id` field naming another record). */
export class InvalidReferenceError extends DomainError {
  constructor(field: string, resource: string) {
    super('invalid_reference', `${field} must reference an existing ${resource.toLowerCase()}`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/**
 * The client closed its connection before the request could be carried out (499, as nginx names it): nobody reads
 * the answer, and it is never stored for an `Idempotency-Key` retry, which runs anew.
 */
export class ClientGoneError extends DomainError {
  static readonly STATUS = 499;

  constructor(message: string) {
    super('client_gone', message);
  }
}
