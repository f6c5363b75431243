/**
 * The one error type of the service. The HTTP layer renders it as `{meta: {code, param, message}}`;
 * `message` starts with `param` when there is one, as the spec asks.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly param: string | undefined,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 400: a parameter is missing or invalid. `rule` completes the sentence that starts with the name. */
export function invalidParam(param: string, rule: string): ApiError {
  return new ApiError(400, param, `${param} ${rule}`);
}

export function missingParam(param: string): ApiError {
  return new ApiError(400, param, `${param} is required.`);
}

export function notFound(what: string, param?: string): ApiError {
  return new ApiError(404, param, param ? `${param} does not match any ${what}.` : `${what} not found.`);
}

export function conflict(param: string, rule: string): ApiError {
  return new ApiError(409, param, `${param} ${rule}`);
}
