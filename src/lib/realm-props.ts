import type { RealmRow } from "../db/queries/realms.js";

/** One organisation setting from the realm's props JSON, or undefined when unset or unreadable. */
export function realmProp(realm: RealmRow | undefined, key: string): unknown {
  if (!realm) return undefined;
  try {
    const props: unknown = JSON.parse(realm.props);
    return typeof props === "object" && props !== null && !Array.isArray(props) ? (props as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}
