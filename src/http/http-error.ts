/**
 * A refusal only the HTTP layer makes: a missing or wrong key (401, 403), a disabled or exhausted
 * project (402), a rate limit (429, with Retry-After), a limiter that cannot be reached (503).
 * The domain's own refusals are `DomainError`s; both render as `{meta: {code, param, message}}`.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    readonly status: number,
    readonly param: string | undefined,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}
