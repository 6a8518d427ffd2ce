/**
 * RFC 6570 URL templates as Zulip reads them (the Python uri_template package it uses): which
 * templates are valid, the names of their variables, and their expansion with string values.
 */

const ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT = "0123456789";
const UNRESERVED = `${ALPHA}${DIGIT}-._~`;
const RESERVED = ":/?#[]@!$&'()*+,;=";
const VAR_START = `${ALPHA}${DIGIT}_`;
const VAR_CHAR = `${VAR_START}.`;

/** One variable of an expression: `name` is what the template declares, `key` what it reads. */
interface Variable {
  name: string;
  key: string;
  maxLength: number;
  explode: boolean;
  fallback: string | null;
}

type Operator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&" | "," | ",+";

type Part = { literal: string } | { op: Operator; vars: Variable[]; trailing: string };

/** How each operator writes its variables: prefix, joiner, whether reserved characters stay. */
const OPERATORS: Record<Operator, { prefix: string; joiner: string; reserved: boolean }> = {
  "": { prefix: "", joiner: ",", reserved: false },
  "+": { prefix: "", joiner: ",", reserved: true },
  "#": { prefix: "#", joiner: ",", reserved: true },
  ".": { prefix: ".", joiner: ".", reserved: false },
  "/": { prefix: "/", joiner: "/", reserved: false },
  ";": { prefix: ";", joiner: ";", reserved: false },
  "?": { prefix: "?", joiner: "&", reserved: false },
  "&": { prefix: "&", joiner: "&", reserved: false },
  ",": { prefix: ",", joiner: ",", reserved: false },
  ",+": { prefix: ",", joiner: ",", reserved: true },
};

/** A parsed URL template. */
export class UriTemplate {
  private constructor(private readonly parts: readonly Part[]) {}

  /** The template, or null when Zulip's library would refuse it ("Invalid URL template."). */
  static parse(template: string): UriTemplate | null {
    const parts: Part[] = [];
    for (const piece of template.split(/(\{[^}]*\})/)) {
      if (piece === "") continue;
      if (piece.startsWith("{") && piece.endsWith("}") && piece.length >= 2) {
        const part = expression(piece.slice(1, -1));
        if (part === null) return null;
        parts.push(part);
      } else if (piece.includes("{") || piece.includes("}")) {
        return null;
      } else {
        parts.push({ literal: piece });
      }
    }
    return new UriTemplate(parts);
  }

  /** The declared variable names, each once, in order of appearance. */
  get variableNames(): string[] {
    const names = new Set<string>();
    for (const part of this.parts) if ("vars" in part) for (const v of part.vars) names.add(v.name);
    return [...names];
  }

  /** The URL for these values; a variable that is missing or null expands to nothing. */
  expand(values: Readonly<Record<string, string | null | undefined>>): string {
    let out = "";
    for (const part of this.parts) {
      if ("literal" in part) {
        out += encode(part.literal, UNRESERVED + RESERVED, true);
        continue;
      }
      const { prefix, joiner, reserved } = OPERATORS[part.op];
      const pieces: string[] = [];
      for (const v of part.vars) {
        const value = Object.hasOwn(values, v.key) ? values[v.key] : v.fallback;
        if (value === null || value === undefined) continue;
        const cut = v.maxLength > 0 ? [...value].slice(0, v.maxLength).join("") : value;
        const encoded = reserved ? encode(cut, UNRESERVED + RESERVED, true) : encode(cut, UNRESERVED, false);
        const name = encode(v.name, UNRESERVED + RESERVED, true);
        if (part.op === ";") pieces.push(v.explode || encoded !== "" ? `${name}=${encoded}` : v.name);
        else if (part.op === "?" || part.op === "&") pieces.push(`${name}=${encoded}`);
        else pieces.push(encoded);
      }
      if (pieces.length > 0) out += (part.trailing === "" ? prefix : "") + pieces.join(joiner) + part.trailing;
    }
    return out;
  }
}

function expression(inner: string): Part | null {
  const first = inner[0] ?? "";
  let op: Operator;
  if (VAR_START.includes(first) && first !== "" ) op = "";
  else if (/^%[0-9A-Fa-f]{2}/.test(inner)) op = "";
  else if (inner.startsWith(",+")) op = ",+";
  else if ("+#./;?&,".includes(first) && first !== "") op = first as Operator;
  else return null;
  let body = inner.slice(op.length);
  let trailing = "";
  const last = body[body.length - 1] ?? "";
  if (body !== "" && ",./;&".includes(last)) {
    trailing = last;
    body = body.slice(0, -1);
  }
  const vars: Variable[] = [];
  for (const spec of body.split(",")) {
    const v = variable(spec);
    if (v === null) return null;
    vars.push(v);
  }
  return { op, vars, trailing };
}

function variable(raw: string): Variable | null {
  // An empty spec fails in the library (it indexes its last character).
  if (raw === "" || !VAR_START.includes(raw[0] ?? "")) return null;
  let spec = raw;
  let fallback: string | null = null;
  const eq = spec.indexOf("=");
  if (eq !== -1) {
    fallback = spec.slice(eq + 1);
    spec = spec.slice(0, eq);
  }
  let maxLength = 0;
  let explode = false;
  const colon = spec.indexOf(":");
  if (colon !== -1) {
    const digits = spec.slice(colon + 1);
    if (!/^[0-9]{1,3}$/.test(digits) || Number(digits) === 0) return null;
    maxLength = Number(digits);
    spec = spec.slice(0, colon);
  } else if (spec.endsWith("*")) {
    explode = true;
    spec = spec.slice(0, -1);
  } else if (spec.endsWith("[]")) {
    explode = true;
    spec = spec.slice(0, -2);
  }
  let name = "";
  let key = "";
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i] ?? "";
    if (c === "%" && i + 2 < spec.length && isHex(spec[i + 1]) && isHex(spec[i + 2])) {
      key += spec.slice(i, i + 3);
      i += 2;
    } else if (VAR_CHAR.includes(c)) {
      key += c;
    } else if (c === "/") {
      name = key;
      key = "";
    } else {
      return null;
    }
  }
  name ||= key;
  key ||= name;
  return { name, key, maxLength, explode, fallback };
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9A-Fa-f]$/.test(c);
}

/** Keeps `allowed` characters (and, if asked, %XX triplets); percent-encodes the rest as UTF-8. */
function encode(value: string, allowed: string, keepTriplets: boolean): string {
  let out = "";
  const chars = [...value];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] ?? "";
    if (allowed.includes(c)) out += c;
    else if (keepTriplets && c === "%" && i + 2 < chars.length && isHex(chars[i + 1]) && isHex(chars[i + 2])) {
      out += `%${chars[i + 1]}${chars[i + 2]}`;
      i += 2;
    } else {
      for (const byte of Buffer.from(c, "utf8")) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return out;
}
