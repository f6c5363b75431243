import { DomainError } from '../errors.js';

/** The server has no reference data (or no IP database) to answer from; `reason` says what to do. */
export function geodataUnavailable(reason: string): DomainError {
  return new DomainError('unavailable', undefined, `Geodata is unavailable: ${reason}.`);
}
