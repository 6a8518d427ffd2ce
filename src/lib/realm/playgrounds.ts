import type { RealmPlaygroundRow } from "../../db/queries/realm-playgrounds.js";
import { badRequest } from "../../base/errors.js";
import { BLANK, FieldErrors, NON_FIELD } from "./model-errors.js";
import { UriTemplate } from "../../algorithms/uri-template.js";

/** A code playground as /register and realm_playgrounds events show it. */
export type ApiPlayground = { id: number; name: string; pygments_language: string; url_template: string };

/** Zulip's RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH. */
export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;

/** The realm's code playgrounds. */
export function playgroundDicts(rows: readonly RealmPlaygroundRow[]): ApiPlayground[] {
  return rows.map((row) => ({ id: row.id, name: row.name, pygments_language: row.pygments_language, url_template: row.url_template }));
}

// Python's $ also matches before a final newline.
const LANGUAGE = /^[ a-zA-Z0-9_+,\-./#]*\n?$/;

/**
 * The pygments_language parameter as Zulip's view checks it, before stripping: at most 40
 * characters, and only characters a code block's language may have (any name, not only Pygments').
 */
export function checkPygmentsLanguage(value: string): void {
  if ([...value].length > MAX_PYGMENTS_LANGUAGE_LENGTH) {
    throw badRequest(`pygments_language is too long (limit: ${MAX_PYGMENTS_LANGUAGE_LENGTH} characters)`);
  }
  if (!LANGUAGE.test(value)) throw badRequest("Invalid characters in pygments language");
}

/**
 * Zulip's RealmPlayground.full_clean() for stripped fields: blank fields, the URL template's
 * syntax, "code" as its one variable, then the realm's other playgrounds of that language and
 * name. Throws Zulip's ValidationFailureError.
 */
export function checkPlaygroundFields(fields: { name: string; pygmentsLanguage: string; urlTemplate: string }, taken: boolean): void {
  const errors = new FieldErrors();
  const template = UriTemplate.parse(fields.urlTemplate);
  if (fields.urlTemplate === "") errors.add("url_template", BLANK);
  else if (template === null) errors.add("url_template", "Invalid URL template.");
  if (fields.name === "") errors.add("name", BLANK);
  if (fields.pygmentsLanguage === "") errors.add("pygments_language", BLANK);
  else if (!LANGUAGE.test(fields.pygmentsLanguage)) errors.add("pygments_language", "Invalid characters in pygments language");
  if (template !== null) {
    const variables = template.variableNames;
    if (!variables.includes("code")) errors.add(NON_FIELD, 'Missing the required variable "code" in the URL template');
    else if (variables.length !== 1) errors.add(NON_FIELD, '"code" should be the only variable present in the URL template');
  }
  if (!errors.has("name") && !errors.has("pygments_language") && taken) {
    errors.add(NON_FIELD, "Realm playground with this Realm, Pygments language and Name already exists.");
  }
  errors.throwIfAny();
}
