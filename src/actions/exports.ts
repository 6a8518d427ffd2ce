import { PassThrough } from "node:stream";
import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { abandonedExports, claimExport, completeExport, exportById, exportsOfRealm, exportsSince, insertExport, publicChannelMessageCount, unstartedExports, updateExport, type RealmExportRow } from "../db/queries/exports.js";
import { realmUploadSpaceUsed } from "../db/queries/attachments.js";
import { userById, type UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest } from "../base/errors.js";
import { randomToken } from "../base/secrets.js";
import { EXPORTS_KEY_PREFIX, exportDicts, exportFolderName } from "../lib/export/exports.js";
import { writeRealmExport } from "../lib/export/realm-export.js";
import { internalSendDirect } from "./notification-bot.js";

/**
 * Data exports through the API (Zulip's realm_export view and deferred_work job at feature level
 * 277). Callers have checked the administrator role. Every change sends realm_export (the realm's
 * whole list) to the administrator who acted, as Zulip 9 does.
 */

/** Zulip's limits on exports made through the API: 5 a week, 250,000 public messages, 10 GiB of uploads. */
export const EXPORT_LIMIT = { perWeek: 5, messages: 250_000, uploadBytes: 10 * 1024 * 1024 * 1024 } as const;
const WEEK_MS = 7 * 24 * 3600 * 1000;

/** POST /export/realm: records a public export and leaves it to the export job; returns its id. */
export async function checkStartExport(ctx: AppContext, user: UserRow): Promise<number> {
  const now = ctx.clock.now();
  const id = await write(ctx, async (tx, outbox) => {
    if ((await exportsSince(tx, user.realm_id, now - WEEK_MS)) >= EXPORT_LIMIT.perWeek) throw badRequest("Exceeded rate limit.");
    if ((await publicChannelMessageCount(tx, user.realm_id)) > EXPORT_LIMIT.messages || (await realmUploadSpaceUsed(tx, user.realm_id)) > EXPORT_LIMIT.uploadBytes) {
      throw badRequest(`Please request a manual export from ${administratorAddress(ctx.config.emailFrom)}.`);
    }
    const exportId = await insertExport(tx, user.realm_id, user.id, now);
    await notifyExports(ctx, tx, outbox, user.realm_id, user.id);
    return exportId;
  });
  ctx.exports.wake(now);
  return id;
}

/** DELETE /export/realm/{export_id}: removes a finished export's archive and marks it deleted. */
export async function checkDeleteExport(ctx: AppContext, user: UserRow, exportId: number): Promise<void> {
  const row = await exportById(ctx.db, user.realm_id, exportId);
  if (!row) throw badRequest("Invalid data export ID");
  if (row.deleted_time !== null) throw badRequest("Export already deleted");
  if (row.export_path === null) throw badRequest(row.failed_time !== null ? "Export failed, nothing to delete" : "Export still in progress");
  await ctx.files.delete(row.export_path);
  await ctx.files.deleteEmptyFolder(row.export_path.slice(0, row.export_path.lastIndexOf("/") + 1));
  await write(ctx, async (tx, outbox) => {
    await updateExport(tx, row.id, { deleted_time: ctx.clock.now() });
    await notifyExports(ctx, tx, outbox, user.realm_id, user.id);
  });
}

/**
 * The export job (ctx.exports): fails exports a stopped process left half-written (as Zulip does
 * on a retry), then writes each requested one. Runs in one process: in a cluster, the holder of
 * the jobs lease, and each export only once its row is claimed.
 */
export async function runRequestedExports(ctx: AppContext, stopping: () => boolean): Promise<void> {
  if (ctx.cluster && !ctx.cluster.jobs.held) return;
  // Runs are one at a time in this process: a claimed, unfinished export here is another run's leftover.
  for (const row of await abandonedExports(ctx.db)) await failExport(ctx, row);
  for (const row of await unstartedExports(ctx.db)) {
    if (stopping()) return;
    if (await ctx.store.write((tx) => claimExport(tx, row.id, ctx.clock.now()))) await runExport(ctx, row);
  }
}

/** When the export job has work: now, if an export waits (and, in a cluster, this process holds the jobs lease); else never. */
export async function nextExportTime(ctx: AppContext): Promise<number | undefined> {
  if (ctx.cluster && !ctx.cluster.jobs.held) return undefined;
  return (await unstartedExports(ctx.db)).length > 0 ? ctx.clock.now() : undefined;
}

async function runExport(ctx: AppContext, row: RealmExportRow): Promise<void> {
  const folder = exportFolderName();
  const key = `${EXPORTS_KEY_PREFIX}${row.realm_id}/${randomToken(24)}/${folder}.tar.gz`;
  const archive = new PassThrough();
  try {
    const written = writeRealmExport(ctx.db, ctx.files, row.realm_id, archive, { publicOnly: true, withSecrets: false, folder, dataDir: ctx.config.dataDir });
    await Promise.all([ctx.files.put(key, archive), written]);
  } catch (error) {
    ctx.log.error({ err: error, exportId: row.id }, "data export failed");
    archive.destroy();
    await failExport(ctx, row);
    return;
  }
  // In a cluster, a process that took the jobs lease over meanwhile may have marked it failed.
  const recorded = await write(ctx, async (tx, outbox) => {
    if (!(await completeExport(tx, row.id, key))) return false;
    const actor = await userById(tx, row.acting_user_id);
    if (actor) await internalSendDirect(ctx, tx, outbox, actor, "Your data export is complete. [View and download exports](/#organization/data-exports-admin).");
    await notifyExports(ctx, tx, outbox, row.realm_id, row.acting_user_id);
    return true;
  });
  if (!recorded) await ctx.files.delete(key);
}

async function failExport(ctx: AppContext, row: RealmExportRow): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    await updateExport(tx, row.id, { failed_time: ctx.clock.now() });
    await notifyExports(ctx, tx, outbox, row.realm_id, row.acting_user_id);
  });
}

async function notifyExports(ctx: AppContext, tx: Db, outbox: Outbox, realmId: number, userId: number): Promise<void> {
  outbox.send({ type: "realm_export", exports: exportDicts(await exportsOfRealm(tx, realmId), ctx.config.externalUrl) }, [userId]);
}

/** The bare address of a From header (`Name <a@b>` → `a@b`). */
function administratorAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}
