/**
 * What the domain refuses: a parameter it cannot take, a record that is not there, a write that
 * clashes with another, reference data it cannot reach now, or a place the project may not serve (legal). The HTTP layer gives each kind its
 * status in one place (src/http/plugins/errors.ts) and renders `{meta: {code, param, message}}`;
 * `message` starts with `param` when there is one, as the spec asks.
 */
export type DomainErrorKind = 'invalid' | 'not-found' | 'conflict' | 'unavailable' | 'legal';

export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly kind: DomainErrorKind,
    readonly param: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** A parameter is invalid; `message` is the whole sentence, starting with the parameter's name. */
export function invalid(param: string, message: string): DomainError {
  return new DomainError('invalid', param, message);
}

/** A parameter is missing or invalid. `rule` completes the sentence that starts with the name. */
export function invalidParam(param: string, rule: string): DomainError {
  return invalid(param, `${param} ${rule}`);
}

export function missingParam(param: string): DomainError {
  return invalid(param, `${param} is required.`);
}

export function notFound(what: string, param?: string): DomainError {
  return new DomainError('not-found', param, param ? `${param} does not match any ${what}.` : `${what} not found.`);
}

export function conflict(param: string, rule: string): DomainError {
  return new DomainError('conflict', param, `${param} ${rule}`);
}
