import type { RealmFilterRow } from "../../db/queries/realm-filters.js";
import type { RenderLinkifier } from "../../markdown/context.js";
import { BLANK, FieldErrors, NON_FIELD } from "./model-errors.js";
import { pyMin } from "../../algorithms/python-text.js";
import { compileRe2, findFrom, MAX_PROGRAM_SIZE } from "../../algorithms/re2/engine.js";
import { parseRe2 } from "../../algorithms/re2/parse.js";
import { UriTemplate } from "../../algorithms/uri-template.js";

/** A linkifier as GET /realm/linkifiers, /register and realm_linkifiers events show it. */
export type ApiLinkifier = { pattern: string; url_template: string; id: number };

/** The realm's linkifiers, in the order they apply. */
export function linkifierDicts(rows: readonly RealmFilterRow[]): ApiLinkifier[] {
  return rows.map((row) => ({ pattern: row.pattern, url_template: row.url_template, id: row.id }));
}

/**
 * Zulip's RealmFilter.full_clean(), for a stripped pattern and URL template: blank fields, the URL
 * template's syntax, the pattern as RE2 reads it, the two sets of group names against each other,
 * then the realm's other patterns. Throws Zulip's ValidationFailureError.
 */
export function checkLinkifierFields(pattern: string, urlTemplate: string, patternTaken: boolean): void {
  const errors = new FieldErrors();
  if (pattern === "") errors.add("pattern", BLANK);
  const template = UriTemplate.parse(urlTemplate);
  if (urlTemplate === "") errors.add("url_template", BLANK);
  else if (template === null) errors.add("url_template", "Invalid URL template.");
  const mismatch = groupMismatch(pattern, template);
  if (mismatch !== null) errors.add(NON_FIELD, mismatch);
  if (!errors.has("pattern") && patternTaken) errors.add(NON_FIELD, "Realm filter with this Realm and Pattern already exists.");
  errors.throwIfAny();
}

/**
 * RealmFilter.clean(): the pattern must compile (RE2's syntax, then the engine's program size, as
 * it will run in renders), and its named groups be the template's variables.
 */
function groupMismatch(pattern: string, template: UriTemplate | null): string | null {
  const parsed = parseRe2(pattern);
  if (!parsed.ok) return `Bad regular expression: ${parsed.error}`;
  const compiled = compileRe2(pattern);
  if (!compiled.ok) return `Bad regular expression: ${compiled.error}`;
  if (template === null) return null;
  const groups = new Set(parsed.groups.filter((g): g is string => g !== null));
  const variables = new Set(template.variableNames);
  const notInPattern = pyMin([...variables].filter((v) => !groups.has(v)));
  if (notInPattern !== undefined) return `Group '${notInPattern}' in URL template is not present in linkifier pattern.`;
  const notInTemplate = pyMin([...groups].filter((g) => !variables.has(g)));
  if (notInTemplate !== undefined) return `Group '${notInTemplate}' in linkifier pattern is not present in URL template.`;
  return null;
}

// Zulip's prepare_linkifier_pattern: a match must follow the start of the text, white space
// (RE2's ASCII \s, NEL, or any Unicode separator) or an opening delimiter, and must not run into
// a letter or digit (12 instructions more than the pattern alone). Group 1 is the character before, group 2 the match, the last group the
// character after; the pattern's own groups come between.
const WRAPPER_SIZE = 12;

function prepare(pattern: string): string {
  return `(^|\\s|\\x{85}|\\pZ|['"(,:<])(${pattern})($|[^\\pL\\pN])`;
}

/**
 * A stored linkifier ready for the renderer, or null if it cannot be applied (Zulip then matches
 * nothing with it): one stored before the engine's size limit existed is skipped this way.
 */
export function compileLinkifier(pattern: string, urlTemplate: string): RenderLinkifier | null {
  const parsed = parseRe2(pattern);
  const template = UriTemplate.parse(urlTemplate);
  if (!parsed.ok || template === null) return null;
  const compiled = compileRe2(prepare(pattern), MAX_PROGRAM_SIZE + WRAPPER_SIZE);
  if (!compiled.ok) return null;
  const re = compiled.re;
  // Zulip expands the template with m.groupdict(): every named group, the prepared pattern's own
  // included; with a repeated name the first group wins, as in RE2's named-group map.
  const named: [string, number][] = [
    ["linkifier_before_match", 1],
    ["linkifier_actual_match", 2],
    ...parsed.groups.flatMap((name, i): [string, number][] => (name === null ? [] : [[name, i + 3]])),
    ["linkifier_after_match", parsed.groups.length + 3],
  ];
  return {
    find: (text, from) => findFrom(re, text, from),
    url(match) {
      const values: Record<string, string | undefined> = {};
      for (const [name, index] of named) if (!Object.hasOwn(values, name)) values[name] = match.groups[index];
      return template.expand(values);
    },
  };
}
