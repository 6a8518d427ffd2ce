import { createHash } from "node:crypto";
import type { RealmRow } from "../../db/queries/realms.js";
import { realmProp } from "./props.js";

/** Zulip's MAX_ICON_FILE_SIZE_MIB and MAX_LOGO_FILE_SIZE_MIB defaults (as /register reports them). */
export const MAX_ICON_FILE_SIZE_MIB = 5;
export const MAX_LOGO_FILE_SIZE_MIB = 5;

/** Zulip's Realm.PLAN_TYPE_LIMITED (Zulip Cloud Free): no uploaded logo. Self-hosted realms are 1. */
export const PLAN_TYPE_LIMITED = 2;

/** Which logo: the light theme's, or the dark theme's ("night"). */
export type LogoKind = "logo" | "night_logo";

/** Where an organisation's uploaded icon and logos are stored (and served, under /user_avatars/). */
export function realmBrandingKey(realmId: number, file: string): string {
  return `user_avatars/${realmId}/realm/${file}`;
}

/** A branding version from the props (Zulip's icon_version, logo_version, night_logo_version; 1 at first). */
export function brandingVersion(realm: RealmRow, kind: "icon" | LogoKind): number {
  const value = realmProp(realm, `${kind}_version`);
  return typeof value === "number" && Number.isInteger(value) ? value : 1;
}

/** The stored source of the icon ("G" Gravatar, "U" uploaded) or of a logo ("D" default, "U" uploaded). */
export function brandingSource(realm: RealmRow, kind: "icon" | LogoKind): string {
  const value = realmProp(realm, `${kind}_source`);
  return typeof value === "string" ? value : kind === "icon" ? "G" : "D";
}

/**
 * Zulip's get_realm_icon_url: the uploaded icon, else the Gravatar identicon of the
 * organisation's subdomain (its gravatar_hash: MD5 of the lower-cased text).
 */
export function realmIconUrl(realm: RealmRow): string {
  if (brandingSource(realm, "icon") === "U") return `/user_avatars/${realm.id}/realm/icon.png?version=${brandingVersion(realm, "icon")}`;
  const hash = createHash("md5").update(realm.string_id.toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}

/** Zulip's get_realm_logo_url: the uploaded logo (never on the limited plan), else Zulip's default logo. */
export function realmLogoUrl(realm: RealmRow, kind: LogoKind): string {
  const uploaded = brandingSource(realm, kind) === "U" && realmProp(realm, "plan_type") !== PLAN_TYPE_LIMITED;
  if (uploaded) return `/user_avatars/${realm.id}/realm/${kind}.png?version=${brandingVersion(realm, kind)}`;
  return "/static/images/logo/zulip-org-logo.svg?version=0";
}
