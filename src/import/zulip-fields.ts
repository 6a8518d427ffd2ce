/** Reading the records of a Zulip export: typed values from its JSON, and which fields were read. */

export type Rec = Record<string, unknown>;
export type Tables = Record<string, Rec[]>;

export const int = (value: unknown): number => (typeof value === "number" ? Math.trunc(value) : typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : 0);
export const intOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : int(value));
export const bit = (value: unknown): number => (value === true || value === 1 ? 1 : 0);
export const bitOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : bit(value));
export const str = (value: unknown): string => (typeof value === "string" ? value : value === null || value === undefined ? "" : String(value));
/** Zulip's datetimes: UNIX seconds (a float) → integer milliseconds. */
export const ms = (value: unknown): number => (typeof value === "number" ? Math.round(value * 1000) : 0);
export const msOrNull = (value: unknown): number | null => (typeof value === "number" ? Math.round(value * 1000) : null);

/** Which fields of each table were read, to list those that were not. */
export class FieldUse {
  private readonly used = new Map<string, Set<string>>();
  private readonly seen = new Map<string, Set<string>>();
  private readonly tables = new Set<string>();

  /** Notes the fields a table's records have (its first record's, for the big tables). */
  saw(table: string, records: readonly Rec[]): void {
    this.tables.add(table);
    const set = this.seen.get(table) ?? new Set<string>();
    for (const record of records) for (const key of Object.keys(record)) set.add(key);
    this.seen.set(table, set);
  }

  /** A reader of the table's fields that remembers which were read. */
  reader(table: string): (record: Rec, field: string) => unknown {
    const set = this.used.get(table) ?? new Set<string>();
    this.used.set(table, set);
    return (record, field) => {
      set.add(field);
      return record[field];
    };
  }

  /** `table` for a table never read, `table.field` for a field never read. */
  ignored(): string[] {
    const out: string[] = [];
    for (const table of [...this.tables].sort()) {
      const used = this.used.get(table);
      if (!used) {
        if ((this.seen.get(table)?.size ?? 0) > 0) out.push(table);
        continue;
      }
      for (const field of [...(this.seen.get(table) ?? [])].sort()) if (!used.has(field)) out.push(`${table}.${field}`);
    }
    return out;
  }
}
