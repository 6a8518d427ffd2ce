import { ApiError, badRequest, confusingArguments, missingArgument } from "../base/errors.js";

/**
 * Zulip's request-parameter conventions, in one place: which values are JSON-decoded, how
 * strictly, and the exact error text for each failure.
 */

/** A JSON Schema fragment: what a parameter's value is, for the API description the server serves. */
export type Schema = Readonly<Record<string, unknown>>;

/**
 * Validates an already-decoded JSON value; `name` is the parameter path used in messages. The
 * checks below carry the schema of what they accept; a check without one accepts "anything".
 */
export type Check<T> = ((value: unknown, name: string) => T) & { schema?: Schema };

/** How a parameter is described: its value's schema, and whether it is sent JSON-encoded. */
export interface ParamDoc {
  schema: Schema;
  json: boolean;
}

/** One declared parameter: how to read its raw string and what to do when it is absent. */
export class Param<T> {
  constructor(
    readonly read: (raw: string, name: string) => T,
    readonly required: boolean,
    readonly fallback: T | undefined,
    readonly aliases: readonly string[] = [],
    readonly doc: ParamDoc = { schema: {}, json: false },
  ) {}

  /** The parameter may be omitted; the handler sees undefined. */
  optional(): Param<T | undefined> {
    return new Param<T | undefined>(this.read, false, undefined, this.aliases, this.doc);
  }

  /** The parameter may be omitted; the handler sees `value`. */
  default(value: T): Param<T> {
    return new Param<T>(this.read, false, value, this.aliases, this.doc);
  }

  /** Also accepted under another name (`subject` for `topic`); sending both is an error. */
  alias(...names: string[]): Param<T> {
    return new Param<T>(this.read, this.required, this.fallback, [...this.aliases, ...names], this.doc);
  }

  /** The same parameter, described by `schema` (JSON-encoded or plain) in the API description. */
  described(schema: Schema, json = this.doc.json): Param<T> {
    return new Param<T>(this.read, this.required, this.fallback, this.aliases, { schema, json });
  }
}

/** Attaches the schema of what a check accepts. */
export function described<T>(check: (value: unknown, name: string) => T, schema: Schema): Check<T> {
  return Object.assign(check, { schema });
}

/** A map of parameter names to declarations. */
export type ParamShape = Record<string, Param<unknown>>;

/** The object a handler receives for a ParamShape. */
export type ParamValues<S extends ParamShape> = { [K in keyof S]: S[K] extends Param<infer T> ? T : never };

/** Where raw values are looked up: the body first, then the query string (Zulip does the same). */
export interface RawParams {
  get(name: string): string | undefined;
  keys(): string[];
}

/** Reads every declared parameter and returns the values plus the names that were consumed. */
export function readParams<S extends ParamShape>(shape: S, raw: RawParams): { values: ParamValues<S>; used: Set<string> } {
  const values: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const [name, param] of Object.entries(shape)) {
    let sentName: string | undefined;
    for (const candidate of [name, ...param.aliases]) {
      if (raw.get(candidate) === undefined) continue;
      if (sentName !== undefined) throw confusingArguments(sentName, candidate);
      sentName = candidate;
    }
    if (sentName === undefined) {
      if (param.required) throw missingArgument(name);
      values[name] = param.fallback;
      continue;
    }
    used.add(sentName);
    values[name] = param.read(raw.get(sentName) ?? "", sentName);
  }
  return { values: values as ParamValues<S>, used };
}

/** A raw, undecoded string parameter (Zulip's plain `str`). */
export function str(opts: { maxLength?: number; trim?: boolean; nonEmpty?: boolean } = {}): Param<string> {
  return new Param((raw, name) => {
    const value = opts.trim ? raw.trim() : raw;
    if (opts.maxLength !== undefined && [...value].length > opts.maxLength) {
      throw badRequest(`${name} is too long (limit: ${opts.maxLength} characters)`);
    }
    if (opts.nonEmpty && value.length === 0) throw badRequest(`${name} cannot be blank`);
    return value;
  }, true, undefined, [], { schema: { type: "string", ...(opts.maxLength === undefined ? {} : { maxLength: opts.maxLength }) }, json: false });
}

/** A raw string that must be one of `choices`: `Invalid x` otherwise. */
export function choice<const C extends string>(choices: readonly C[]): Param<C> {
  return new Param((raw, name) => {
    if (!(choices as readonly string[]).includes(raw)) throw badRequest(`Invalid ${name}`);
    return raw as C;
  }, true, undefined, [], { schema: { type: "string", enum: choices }, json: false });
}

/** A JSON-encoded parameter, decoded and then checked strictly. */
export function json<T>(check: Check<T>): Param<T> {
  return new Param((raw, name) => check(decodeJson(raw, name), name), true, undefined, [], { schema: check.schema ?? {}, json: true });
}

/** A JSON integer; `5.0` and `"5"` are not integers. */
export function int(opts: { min?: number; max?: number } = {}): Param<number> {
  return new Param((raw, name) => {
    const value = decodeJson(raw, name);
    if (typeof value === "number" && !/^-?\d+$/.test(raw.trim())) throw badRequest(`${name} is not an integer`);
    return isInt(opts)(value, name);
  }, true, undefined, [], { schema: isInt(opts).schema ?? {}, json: true });
}

/** A JSON boolean: only `true` and `false`. */
export function bool(): Param<boolean> {
  return json(isBool);
}

/**
 * Parses a JSON value or fails with `x is not valid JSON`. Like Zulip's parser (orjson), it
 * refuses arrays and objects nested deeper than 1,024 levels.
 */
export function decodeJson(raw: string, name: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
  if (raw.length > 2 * MAX_JSON_DEPTH && nestedTooDeep(raw)) throw badRequest(`${name} is not valid JSON`);
  return value;
}

const MAX_JSON_DEPTH = 1024;

/** True when valid JSON text nests arrays or objects deeper than MAX_JSON_DEPTH. */
function nestedTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Checks a boolean. */
export const isBool: Check<boolean> = described((value, name) => {
  if (typeof value !== "boolean") throw badRequest(`${name} is not a boolean`);
  return value;
}, { type: "boolean" });

/** Checks an integer, optionally bounded. */
export function isInt(opts: { min?: number; max?: number } = {}): Check<number> {
  return described((value, name) => {
    if (typeof value !== "number" || !Number.isInteger(value)) throw badRequest(`${name} is not an integer`);
    if (opts.min !== undefined && value < opts.min) throw badRequest(`${name} is too small`);
    if (opts.max !== undefined && value > opts.max) throw badRequest(`${name} is too large`);
    return value;
  }, { type: "integer", ...(opts.min === undefined ? {} : { minimum: opts.min }), ...(opts.max === undefined ? {} : { maximum: opts.max }) });
}

/** Checks a string, optionally bounded in length. */
export function isStr(opts: { maxLength?: number } = {}): Check<string> {
  return described((value, name) => {
    if (typeof value !== "string") throw badRequest(`${name} is not a string`);
    if (opts.maxLength !== undefined && [...value].length > opts.maxLength) {
      throw badRequest(`${name} is too long (limit: ${opts.maxLength} characters)`);
    }
    return value;
  }, { type: "string", ...(opts.maxLength === undefined ? {} : { maxLength: opts.maxLength }) });
}

/** Checks a value against a fixed set: `Invalid x` otherwise. */
export function isOneOf<const C extends string | number>(choices: readonly C[]): Check<C> {
  return described((value, name) => {
    if (!(choices as readonly unknown[]).includes(value)) throw badRequest(`Invalid ${name}`);
    return value as C;
  }, { enum: choices });
}

/** Checks a list, naming failing elements `x[i]`. */
export function isList<T>(item: Check<T>): Check<T[]> {
  return described((value, name) => {
    if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
    return value.map((element, i) => item(element, `${name}[${i}]`));
  }, { type: "array", items: item.schema ?? {} });
}

/** Checks null or the inner check. */
export function isNullable<T>(inner: Check<T>): Check<T | null> {
  return described((value, name) => (value === null ? null : inner(value, name)), { oneOf: [inner.schema ?? {}, { type: "null" }] });
}

/** Accepts the first alternative that passes; reports the last alternative's error otherwise. */
export function isEither<A, B>(a: Check<A>, b: Check<B>): Check<A | B> {
  return described((value, name) => {
    try {
      return a(value, name);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return b(value, name);
    }
  }, { anyOf: [a.schema ?? {}, b.schema ?? {}] });
}

type Fields = Record<string, Check<unknown>>;
type FieldValues<F extends Fields> = { [K in keyof F]: F[K] extends Check<infer T> ? T : never };

/**
 * Checks an object with required keys and optional keys. Other keys are refused, unless
 * `otherValues` is given (Zulip's check_dict with a value_validator): then every value must pass
 * it, named `x contains a value that`, and the keys it accepts are left out of the result.
 */
export function isDict<R extends Fields, O extends Fields = Record<never, never>>(
  required: R,
  optional?: O,
  otherValues?: Check<unknown>,
): Check<FieldValues<R> & Partial<FieldValues<O>>> {
  const properties = Object.fromEntries([...Object.entries(required), ...Object.entries(optional ?? {})].map(([key, check]) => [key, check.schema ?? {}]));
  return described((value, name) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest(`${name} is not a dict`);
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(required)) {
      if (!(key in input)) throw badRequest(`${key} key is missing from ${name}`);
      out[key] = check(input[key], `${name}[${JSON.stringify(key)}]`);
    }
    for (const [key, check] of Object.entries(optional ?? {})) {
      if (key in input) out[key] = check(input[key], `${name}[${JSON.stringify(key)}]`);
    }
    for (const key of Object.keys(input)) {
      if (otherValues) otherValues(input[key], `${name} contains a value that`);
      else if (!(key in required) && !(optional && key in optional)) {
        throw badRequest(`Argument "${key}" at ${name} is unexpected`);
      }
    }
    return out as FieldValues<R> & Partial<FieldValues<O>>;
  }, { type: "object", properties, required: Object.keys(required), additionalProperties: otherValues ? (otherValues.schema ?? true) : false });
}

function isIntLike(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}

/**
 * Integer path segments (`/users/{user_id}`) are matched by the router; this converts them. One
 * that is not an integer, or too large to be any row's id, is -1: no such object.
 */
export function pathInt(value: string | undefined): number {
  const n = Number(value);
  return isIntLike(n) && Math.abs(n) <= MAX_PATH_ID ? n : -1;
}

/** Ids are stored as 32-bit integers. */
const MAX_PATH_ID = 2_147_483_647;
