import { ApiError } from '../errors.js';

/** 503: the server has no reference data (or no IP database) to answer from; `reason` says what to do. */
export function geodataUnavailable(reason: string): ApiError {
  return new ApiError(503, undefined, `Geodata is unavailable: ${reason}.`);
}
