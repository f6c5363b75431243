import { DomainError, invalidParam, missingParam } from '../../domain/errors.js';
import { HttpError } from '../http-error.js';

/** A JSON schema fragment, used only to document the API (OpenAPI); parsing is done by `parse`. */
export type JsonSchema = Record<string, unknown>;

/**
 * One request parameter: how to read it leniently (as the Radar SDKs send it) and how to document it.
 * `parse` receives a present value: `undefined`, `null` and `''` count as absent before it is called.
 */
export interface Param<T, Req extends boolean = boolean> {
  readonly schema: JsonSchema;
  readonly isRequired: Req;
  readonly defaultValue?: T;
  /** Bracket keys (`metadata[key]=v`) are gathered into a dictionary for this parameter. */
  readonly bracketKeys?: boolean;
  parse(raw: unknown, name: string): T;
}

export interface OptionalParam<T> extends Param<T, false> {
  required(): Param<T, true>;
  default(value: T): Param<T, true>;
  describe(description: string): OptionalParam<T>;
}

/** Builds a parameter from a parse function and its schema. */
export function param<T>(schema: JsonSchema, parse: (raw: unknown, name: string) => T, bracketKeys = false) {
  const make = (s: JsonSchema): OptionalParam<T> => ({
    schema: s,
    isRequired: false,
    bracketKeys,
    parse,
    required: () => ({ schema: s, isRequired: true, bracketKeys, parse }),
    default: (value: T) => ({
      schema: { ...s, default: value },
      isRequired: true,
      defaultValue: value,
      bracketKeys,
      parse,
    }),
    describe: (description: string) => make({ ...s, description }),
  });
  return make(schema);
}

export type ParamSpec = Record<string, Param<unknown>>;

export type Parsed<S extends ParamSpec> = {
  [K in keyof S]: S[K] extends Param<infer T, true> ? T : S[K] extends Param<infer T, false> ? T | undefined : never;
};

/**
 * Whether a raw value counts as absent: clients send `null` for unset fields and `''` (or blanks, from
 * empty form inputs) for empty ones. Strings are trimmed when parsed, so a blank must not slip past
 * `required()` as an empty value.
 */
export function isAbsent(raw: unknown): boolean {
  return raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
}

/**
 * Reads every parameter of `spec` from `source` (a parsed query or body). Unknown fields are ignored.
 * Throws an invalid `DomainError` naming the first offending parameter.
 */
export function parseParams<S extends ParamSpec>(spec: S, source: unknown): Parsed<S> {
  return parseEntries(Object.entries(spec), source) as Parsed<S>;
}

/** `parseParams` of one spec, its fields listed once: a route parses on every request. */
export function paramsParser<S extends ParamSpec>(spec: S): (source: unknown) => Parsed<S> {
  const entries = Object.entries(spec);
  return (source) => parseEntries(entries, source) as Parsed<S>;
}

function parseEntries(entries: Array<[string, Param<unknown>]>, source: unknown): Record<string, unknown> {
  const input = (source && typeof source === 'object' ? source : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, p] of entries) {
    let raw = input[name];
    if (p.bracketKeys) raw = mergeBracketKeys(input, name, raw);
    if (isAbsent(raw)) {
      if (p.defaultValue !== undefined) out[name] = p.defaultValue;
      else if (p.isRequired) throw missingParam(name);
      continue;
    }
    try {
      out[name] = p.parse(raw, name);
    } catch (err) {
      if (err instanceof DomainError || err instanceof HttpError) throw err;
      throw invalidParam(name, 'is invalid.');
    }
  }
  return out;
}

/** Gathers `name[key]=value` entries (Android and form clients) into one dictionary. */
function mergeBracketKeys(input: Record<string, unknown>, name: string, raw: unknown): unknown {
  const prefix = `${name}[`;
  let dict: Record<string, unknown> | undefined;
  for (const key of Object.keys(input)) {
    if (key.startsWith(prefix) && key.endsWith(']') && key.length > prefix.length + 1) {
      dict ??= {};
      dict[key.slice(prefix.length, -1)] = input[key];
    }
  }
  if (!dict) return raw;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return { ...(raw as object), ...dict };
  return dict;
}
