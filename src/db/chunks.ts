/**
 * Lists that come from a request (ids to add, remove, look up) can be of any length, and one
 * statement can bind only so many values: 32,766 on SQLite, 65,535 on PostgreSQL. Queries that
 * take such a list run once per slice of it.
 */

/** The most values of one `in (…)` list. */
export const IN_LIST_SIZE = 500;

/** The most values bound by one multi-row insert. */
const INSERT_VALUES = 5_000;

/** `items` in slices of at most `size`. */
export function chunks<T>(items: readonly T[], size = IN_LIST_SIZE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs a select once per slice of the distinct `items` and concatenates the rows (in no particular order). */
export async function selectInChunks<T, R>(items: readonly T[], select: (slice: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const slice of chunks(matchable(items))) out.push(...(await select(slice)));
  return out;
}

/** Runs a statement (a delete, an update) once per slice of the distinct `items`. */
export async function runInChunks<T>(items: readonly T[], run: (slice: T[]) => Promise<unknown>): Promise<void> {
  for (const slice of chunks(matchable(items))) await run(slice);
}

/** The largest id a row can have: ids are PostgreSQL `integer`s. */
const MAX_ID = 2_147_483_647;

/**
 * The distinct values that can equal a stored one: a number beyond the 32-bit range is no row's
 * id (and PostgreSQL refuses to compare an integer column with it), so it is left out.
 */
function matchable<T>(items: readonly T[]): T[] {
  return [...new Set(items)].filter((item) => typeof item !== "number" || (item >= -MAX_ID - 1 && item <= MAX_ID));
}

/** Inserts `rows` a few hundred or thousand at a time, as many as keep the bound values under the limit. */
export async function insertInChunks<R extends object>(rows: readonly R[], insert: (slice: R[]) => Promise<unknown>): Promise<void> {
  if (rows.length === 0) return;
  const columns = Math.max(1, Object.keys(rows[0] ?? {}).length);
  for (const slice of chunks(rows, Math.max(1, Math.floor(INSERT_VALUES / columns)))) await insert(slice);
}
