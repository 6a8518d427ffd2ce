import { write, type AppContext } from "../context.js";
import { deleteUnclaimedAttachments, unclaimedAttachmentsBefore } from "../db/queries/attachments.js";
import { unsentScheduledContentsLinkingUploads } from "../db/queries/scheduled-messages.js";
import { linkedPathIds } from "../uploads/paths.js";
import { deleteUploadFiles } from "../uploads/storage.js";

/** Zulip's delete_old_unclaimed_attachments default: an upload no message links is kept five weeks. */
export const UNCLAIMED_UPLOAD_MAX_AGE_MS = 5 * 7 * 24 * 3600 * 1000;
/** How often the server looks for them (Zulip's cron job runs daily). */
export const UNCLAIMED_UPLOAD_SWEEP_INTERVAL_MS = 24 * 3600 * 1000;
/** How many uploads one transaction removes. */
const BATCH = 200;

/**
 * Zulip's do_delete_old_unclaimed_attachments: removes every upload created more than five weeks
 * before `now` that no message links, nor a scheduled message still to be sent: its row, its
 * image facts, its file and its thumbnails. No event is sent (Zulip sends none). The one entry
 * point of the periodic job (the place for a lease, should several servers share a database).
 * Returns how many were removed.
 */
export async function removeUnclaimedUploads(ctx: AppContext, now: number, stopping: () => boolean = () => false): Promise<number> {
  const before = now - UNCLAIMED_UPLOAD_MAX_AGE_MS;
  const kept = new Set<number>();
  const scheduledLinks = new Map<number, Set<string>>();
  let removed = 0;
  for (;;) {
    if (stopping()) break;
    const candidates = (await unclaimedAttachmentsBefore(ctx.db, before, BATCH + kept.size)).filter((a) => !kept.has(a.id));
    if (candidates.length === 0) break;
    const doomed: number[] = [];
    for (const attachment of candidates) {
      const linked = await scheduledLinksOf(ctx, scheduledLinks, attachment.realm_id);
      if (linked.has(attachment.path_id)) kept.add(attachment.id);
      else doomed.push(attachment.id);
    }
    const paths = await write(ctx, (tx) => deleteUnclaimedAttachments(tx, doomed, before));
    // The rows are gone: the files follow (a failure here leaves only unreachable files).
    for (const pathId of paths) await deleteUploadFiles(ctx.files, pathId);
    removed += paths.length;
    // Ones a message claimed meanwhile stay unclaimed-looking no longer; the rest were kept on purpose.
    for (const id of doomed) kept.add(id);
    if (candidates.length < BATCH) break;
  }
  if (removed > 0) ctx.log.info({ removed }, "removed unclaimed uploads");
  return removed;
}

/** The path ids a realm's unsent scheduled messages link (Zulip keeps those uploads too). */
async function scheduledLinksOf(ctx: AppContext, cache: Map<number, Set<string>>, realmId: number): Promise<Set<string>> {
  const known = cache.get(realmId);
  if (known) return known;
  const links = new Set<string>();
  for (const html of await unsentScheduledContentsLinkingUploads(ctx.db, realmId)) {
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => (m[1] ?? "").replace(/&amp;/g, "&"));
    for (const pathId of linkedPathIds(hrefs, ctx.config.externalUrl)) links.add(pathId);
  }
  cache.set(realmId, links);
  return links;
}
