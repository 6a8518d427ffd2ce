import type { Db } from "../../db/index.js";
import { streamById } from "../../db/queries/streams.js";
import { subscriberIds } from "../../db/queries/subscriptions.js";

/**
 * Who hears about changes to messages (edits, reactions, deletions): everyone holding a row for
 * them, plus the channel's subscribers when they may read its whole history (Zulip's
 * event_recipient_ids_for_action_on_messages).
 */
export async function messageAudience(db: Db, messageIds: readonly number[], streamId: number | null): Promise<number[]> {
  const ids = new Set<number>();
  for (let i = 0; i < messageIds.length; i += 500) {
    const rows = await db.selectFrom("user_message").select("user_id").distinct().where("message_id", "in", messageIds.slice(i, i + 500)).execute();
    for (const r of rows) ids.add(r.user_id);
  }
  if (streamId !== null) {
    const stream = await streamById(db, streamId);
    if (stream?.history_public_to_subscribers) for (const id of (await subscriberIds(db, [streamId])).get(streamId) ?? []) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}
