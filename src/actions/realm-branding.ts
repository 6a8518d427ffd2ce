import { Readable } from "node:stream";
import { write, type AppContext } from "../context.js";
import { realmById, updateRealm, type RealmRow } from "../db/queries/realms.js";
import type { UserRow } from "../db/queries/users.js";
import type { RealmEvent } from "../events/types.js";
import { adminRequired, badRequest } from "../base/errors.js";
import type { UploadedFile } from "../uploads/incoming.js";
import { brandingVersion, MAX_ICON_FILE_SIZE_MIB, MAX_LOGO_FILE_SIZE_MIB, PLAN_TYPE_LIMITED, realmBrandingKey, realmIconUrl, realmLogoUrl, type LogoKind } from "../lib/realm/branding.js";
import { realmProp, realmProps } from "../lib/realm/props.js";
import { isAdmin } from "../lib/users/roles.js";
import { AVATAR_SIZE, badImage, receivedImageType, resizeAvatar, resizeLogo, THUMBNAIL_ACCEPT_IMAGE_TYPES } from "../uploads/images.js";

/**
 * POST /realm/icon (Zulip's upload_icon): administrators only; one image of at most 5 MiB, of an
 * accepted type, kept as uploaded and as a 100 px square PNG. Returns the new icon_url.
 */
export async function checkUploadRealmIcon(ctx: AppContext, actor: UserRow, files: readonly UploadedFile[]): Promise<string> {
  if (!isAdmin(actor)) throw adminRequired();
  const file = exactlyOne(files, "You must upload exactly one icon.");
  await checkImageFile(file, MAX_ICON_FILE_SIZE_MIB);
  const icon = await resizeAvatar(file.data, AVATAR_SIZE);
  // Written before the change commits: the new version's URL never names a missing file.
  await ctx.files.put(realmBrandingKey(actor.realm_id, "icon.original"), Readable.from([file.data]));
  await ctx.files.put(realmBrandingKey(actor.realm_id, "icon.png"), Readable.from([icon]));
  return realmIconUrl(await doChangeBrandingSource(ctx, actor.realm_id, "icon", "U"));
}

/** DELETE /realm/icon: back to the Gravatar identicon (the stored files stay, as Zulip keeps them). Returns the new icon_url. */
export async function checkDeleteRealmIcon(ctx: AppContext, actor: UserRow): Promise<string> {
  if (!isAdmin(actor)) throw adminRequired();
  return realmIconUrl(await doChangeBrandingSource(ctx, actor.realm_id, "icon", "G"));
}

/**
 * POST /realm/logo (Zulip's upload_logo): administrators only, not on Zulip Cloud's limited plan
 * (a self-hosted organisation never is); one image of at most 5 MiB, of an accepted type, kept
 * as uploaded and as a PNG fitted into 800×100.
 */
export async function checkUploadRealmLogo(ctx: AppContext, actor: UserRow, kind: LogoKind, files: readonly UploadedFile[]): Promise<void> {
  if (!isAdmin(actor)) throw adminRequired();
  if (realmProp(await ctx.realms.get(actor.realm_id), "plan_type") === PLAN_TYPE_LIMITED) throw badRequest("Available on Zulip Cloud Standard. Upgrade to access.");
  const file = exactlyOne(files, "You must upload exactly one logo.");
  await checkImageFile(file, MAX_LOGO_FILE_SIZE_MIB);
  const logo = await resizeLogo(file.data);
  await ctx.files.put(realmBrandingKey(actor.realm_id, `${kind}.original`), Readable.from([file.data]));
  await ctx.files.put(realmBrandingKey(actor.realm_id, `${kind}.png`), Readable.from([logo]));
  await doChangeBrandingSource(ctx, actor.realm_id, kind, "U");
}

/** DELETE /realm/logo: back to Zulip's default logo (the stored files stay). */
export async function checkDeleteRealmLogo(ctx: AppContext, actor: UserRow, kind: LogoKind): Promise<void> {
  if (!isAdmin(actor)) throw adminRequired();
  await doChangeBrandingSource(ctx, actor.realm_id, kind, "D");
}

function exactlyOne(files: readonly UploadedFile[], msg: string): UploadedFile {
  const [file, ...others] = files;
  if (!file || others.length > 0) throw badRequest(msg);
  return file;
}

async function checkImageFile(file: UploadedFile, maxMib: number): Promise<void> {
  if (file.data.length > maxMib * 1024 * 1024) throw badRequest(`Uploaded file is larger than the allowed limit of ${maxMib} MiB`);
  if (!THUMBNAIL_ACCEPT_IMAGE_TYPES.has(await receivedImageType(file.data, file.mimetype))) throw badImage("Invalid image format");
}

/**
 * Zulip's do_change_icon_source and do_change_logo_source: the source and a new version (so the
 * URL changes). realm update_dict (property icon, logo or night_logo, with the URL and source)
 * goes to every active user of the realm. Returns the realm as changed.
 */
async function doChangeBrandingSource(ctx: AppContext, realmId: number, kind: "icon" | LogoKind, source: string): Promise<RealmRow> {
  return write(ctx, async (tx, outbox) => {
    const realm = await realmById(tx, realmId);
    if (!realm) throw new Error(`no realm ${realmId}`);
    const props = { ...realmProps(realm), [`${kind}_source`]: source, [`${kind}_version`]: brandingVersion(realm, kind) + 1 };
    const changed: RealmRow = { ...realm, props: JSON.stringify(props) };
    await updateRealm(tx, realmId, { props: changed.props });
    outbox.invalidate({ cache: "realm", id: realmId });
    outbox.sendToRealm(brandingEvent(changed, kind, source), realmId);
    return changed;
  });
}

function brandingEvent(realm: RealmRow, kind: "icon" | LogoKind, source: string): RealmEvent {
  if (kind === "icon") return { type: "realm", op: "update_dict", property: "icon", data: { icon_source: source, icon_url: realmIconUrl(realm) } };
  if (kind === "logo") return { type: "realm", op: "update_dict", property: "logo", data: { logo_url: realmLogoUrl(realm, "logo"), logo_source: source } };
  return { type: "realm", op: "update_dict", property: "night_logo", data: { night_logo_url: realmLogoUrl(realm, "night_logo"), night_logo_source: source } };
}
