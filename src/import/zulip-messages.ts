/** The messages of a Zulip export, read one batch file at a time, with each user's flags. */
import type { AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { RecipientType } from "../db/queries/messages.js";
import { dmKey } from "../lib/messages/narrow.js";
import { MessageBatch } from "./slack-batch.js";
import { ImportProgress } from "./slack-progress.js";
import { ImportError } from "./slack-zip.js";
import { bit, int, ms, msOrNull, str, type FieldUse, type Rec } from "./zulip-fields.js";
import type { ZulipArchive } from "./zulip-archive.js";

/** Zulip's message batches hold 1000 messages each (the last one fewer). */
const BATCH_SIZE = 1000;
/** Messages between two collections of the heap (as the Slack import). */
const COLLECT_EVERY = 20_000;

/** What the messages are read against: the import's realm and the tables read before them. */
export interface MessageScope {
  ctx: AppContext;
  tx: Db;
  archive: ZulipArchive;
  fields: FieldUse;
  realmId: number;
  /** Recipient id → what it names. */
  recipients: ReadonlyMap<number, { type: number; typeId: number; key: string }>;
  clients: ReadonlyMap<number, string>;
  progress: ((line: string) => void) | undefined;
}

/** Inserts every message of the export's batch files; returns how many. */
export async function importMessages(scope: MessageScope): Promise<number> {
  const { ctx, tx, archive, fields, realmId, recipients, clients } = scope;
  let count = 0;
  const { batches } = archive;
  const last = batches.length > 0 ? await archive.tables(batches[batches.length - 1] ?? "") : {};
  const total = Math.max(0, batches.length - 1) * BATCH_SIZE + (last["zerver_message"]?.length ?? 0);
  const progress = new ImportProgress(total, scope.progress);
  const batch = new MessageBatch(tx, ctx.store.dialect);
  await batch.start();
  let collectedAt = 0;
  for (const name of batches) {
    const tables = await archive.tables(name);
    const messages = tables["zerver_message"] ?? [];
    const userMessages = tables["zerver_usermessage"] ?? [];
    for (const [table, rows] of Object.entries(tables)) fields.saw(table, rows.slice(0, 1));
    const m = fields.reader("zerver_message");
    const um = fields.reader("zerver_usermessage");
    const flags = new Map<number, Map<number, number>>();
    for (const row of userMessages) {
      um(row, "id");
      const messageId = int(um(row, "message"));
      const perUser = flags.get(messageId) ?? new Map<number, number>();
      perUser.set(int(um(row, "user_profile")), int(um(row, "flags_mask") ?? row["flags"]));
      flags.set(messageId, perUser);
    }
    if (userMessages[0] && !("flags_mask" in userMessages[0])) um(userMessages[0], "flags");
    for (const message of messages) {
      const id = int(m(message, "id"));
      const sender = int(m(message, "sender"));
      const recipientId = int(m(message, "recipient"));
      const recipient = recipients.get(recipientId);
      if (!recipient) throw new ImportError(`${name}: message ${id} has the recipient ${recipientId}, which zerver_recipient lacks; nothing was imported`);
      const content = str(m(message, "content"));
      const rendered = str(m(message, "rendered_content"));
      const editHistory = m(message, "edit_history");
      const history = typeof editHistory === "string" ? editHistory : editHistory ? JSON.stringify(editHistory) : null;
      for (const field of ["realm", "rendered_content_version"]) m(message, field);
      await batch.add(
        {
          id,
          realm_id: realmId,
          sender_id: sender,
          stream_id: recipient.type === RecipientType.STREAM ? recipient.typeId : null,
          topic: recipient.type === RecipientType.STREAM ? str(m(message, "subject")) : "",
          dm_key: recipient.type === RecipientType.GROUP ? recipient.key : recipient.type === RecipientType.PERSONAL ? dmKey([sender, recipient.typeId]) : "",
          content,
          rendered_content: rendered,
          date_sent: ms(m(message, "date_sent") ?? message["pub_date"]),
          last_edit_time: msOrNull(m(message, "last_edit_time")),
          edit_history: history,
          has_link: bit(m(message, "has_link")),
          has_image: bit(m(message, "has_image")),
          has_attachment: bit(m(message, "has_attachment")),
          is_me_message: content.startsWith("/me ") && rendered.startsWith("<p>/me ") ? 1 : 0,
          client: clients.get(int(m(message, "sending_client"))) ?? "Zulip import",
          recipient_id: recipientId,
          last_moved_time: lastMoved(history),
        },
        flags.get(id) ?? new Map(),
        [],
        [],
      );
      count++;
      progress.advance();
    }
    if (count - collectedAt >= COLLECT_EVERY) {
      collectedAt = count;
      (globalThis as { gc?: () => void }).gc?.();
    }
  }
  await batch.finish();
  progress.finish();
  return count;
}

/** When a message was last moved: the newest edit-history entry that changed its topic or channel. */
function lastMoved(history: string | null): number | null {
  if (!history) return null;
  try {
    const entries: unknown = JSON.parse(history);
    if (!Array.isArray(entries)) return null;
    let latest: number | null = null;
    for (const entry of entries) {
      if (typeof entry !== "object" || entry === null) continue;
      const e = entry as Rec;
      if (("prev_topic" in e || "prev_stream" in e) && typeof e["timestamp"] === "number") latest = Math.max(latest ?? 0, Math.round(e["timestamp"] * 1000));
    }
    return latest;
  } catch {
    return null;
  }
}
