/**
 * JSON shapes as a client's decoder reads them: which keys it requires and of what JSON type.
 * `problems(value, shape)` lists every mismatch with its path; an empty list means the client
 * can decode the value.
 */
export type Shape = (value: unknown, path: string) => string[];

const typed = (name: string, test: (value: unknown) => boolean): Shape => (value, path) => (test(value) ? [] : [`${path}: expected ${name}, got ${JSON.stringify(value)?.slice(0, 80)}`]);

export const int = typed("an integer", (v) => typeof v === "number" && Number.isInteger(v));
export const num = typed("a number", (v) => typeof v === "number");
export const str = typed("a string", (v) => typeof v === "string");
export const bool = typed("a boolean", (v) => typeof v === "boolean");
export const any: Shape = () => [];

/** A string that parses as an absolute URL (Dart's Uri.parse accepts relative ones too; we send absolute). */
export const url = typed("a URL", (v) => typeof v === "string" && URL.canParse(v));

/** One of a fixed set of values (an enum the client maps). */
export const oneOf = (values: readonly unknown[]): Shape => typed(`one of ${JSON.stringify(values)}`, (v) => values.includes(v));

/** null or the inner shape. */
export const nullable = (inner: Shape): Shape => (value, path) => (value === null ? [] : inner(value, path));

/** A list whose every item has the shape. */
export function list(item: Shape): Shape {
  return (value, path) => (Array.isArray(value) ? value.flatMap((v, i) => item(v, `${path}[${i}]`)) : [`${path}: expected a list`]);
}

/** An object used as a map: any keys matching `key`, every value of the shape. */
export function map(value: Shape, key: RegExp = /^/): Shape {
  return (input, path) => {
    if (!isObject(input)) return [`${path}: expected an object`];
    return Object.entries(input).flatMap(([k, v]) => [...(key.test(k) ? [] : [`${path}: key ${JSON.stringify(k)} does not match ${key}`]), ...value(v, `${path}.${k}`)]);
  };
}

/** An object with these required keys and, if present, these optional ones; other keys are ignored. */
export function obj(required: Record<string, Shape>, optional: Record<string, Shape> = {}): Shape {
  return (input, path) => {
    if (!isObject(input)) return [`${path}: expected an object`];
    const out: string[] = [];
    for (const [key, shape] of Object.entries(required)) {
      if (!(key in input)) out.push(`${path}.${key}: missing`);
      else out.push(...shape(input[key], `${path}.${key}`));
    }
    for (const [key, shape] of Object.entries(optional)) if (key in input && input[key] !== null) out.push(...shape(input[key], `${path}.${key}`));
    return out;
  };
}

/** The mismatches between a value and a shape. */
export function problems(value: unknown, shape: Shape, path = "$"): string[] {
  return shape(value, path);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
