/**
 * The engine linkifiers run on: re2js, a port of RE2 to JavaScript. Like RE2 it matches in time
 * linear in the text (no backtracking), so no pattern can make a render run away; unlike RE2 in
 * C++ its cost per character grows with the size of the compiled program, so programs are capped
 * well below RE2's own limit (RE2 refuses with the same text when a program outgrows its memory).
 */
import { RE2JS, RE2JSException } from "re2js";

/** Instructions a linkifier's own pattern may compile to; past it RE2's "too large" error. */
export const MAX_PROGRAM_SIZE = 1000;

/** RE2's error text for a program over its size limit. */
export const TOO_LARGE = "pattern too large - compile failed";

/** A compiled pattern, or the error text when it does not compile or is too large. */
export type Compiled = { ok: true; re: RE2JS } | { ok: false; error: string };

/** Compiles RE2 `source` with RE2's default (Perl) flags, refusing programs over `maxSize` instructions. */
export function compileRe2(source: string, maxSize = MAX_PROGRAM_SIZE): Compiled {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (error) {
    if (error instanceof RE2JSException) return { ok: false, error: "error" in error && typeof error.error === "string" ? error.error : TOO_LARGE };
    // A stack overflow on absurd nesting: as RE2 refuses what it cannot hold.
    if (error instanceof RangeError) return { ok: false, error: TOO_LARGE };
    throw error;
  }
  if (re.programSize() > maxSize) return { ok: false, error: TOO_LARGE };
  return { ok: true, re };
}

/** Group 0 and every capture group of the leftmost match at or after `from` (undefined: not taking part), with its start. */
export interface Re2Match {
  index: number;
  groups: (string | undefined)[];
}

/** The leftmost match in `text` starting at or after `from`; ^ and \b still see the text before `from`. */
export function findFrom(re: RE2JS, text: string, from: number): Re2Match | null {
  const matcher = re.matcher(text);
  if (!matcher.find(from)) return null;
  const groups: (string | undefined)[] = [];
  for (let i = 0; i <= matcher.groupCount(); i++) groups.push(matcher.group(i) ?? undefined);
  return { index: matcher.start(0), groups };
}
