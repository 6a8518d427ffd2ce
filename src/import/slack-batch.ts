import { sql, type Insertable } from "kysely";
import type { Db } from "../db/index.js";
import type { DialectName } from "../db/migrations/helpers.js";
import { insertInChunks } from "../db/chunks.js";
import type { MessageTable, ReactionTable } from "../db/schema.js";

/** How many messages are written together: one multi-row insert per table and batch. */
const BATCH = 500;

/**
 * The imported messages' rows, written a batch at a time. Message ids are given here, in order,
 * from the empty table's next id, so a message's user rows, reactions and file links can be made
 * before the message row is written; the batch then goes in as a few multi-row inserts instead of
 * several statements per message.
 */
export class MessageBatch {
  private nextId = 0;
  private messages: Insertable<MessageTable>[] = [];
  private userMessages: { user_id: number; message_id: number; flags: number }[] = [];
  private reactions: ReactionTable[] = [];
  private links: { attachment_id: number; message_id: number; public: boolean }[] = [];

  constructor(
    private readonly tx: Db,
    private readonly dialect: DialectName,
  ) {}

  /** Starts after the table's largest id (none: the target is empty). */
  async start(): Promise<void> {
    const row = await this.tx.selectFrom("message").select((eb) => eb.fn.max("id").as("id")).executeTakeFirst();
    this.nextId = Number(row?.id ?? 0) + 1;
  }

  /** Queues a message and returns its id: the row's own when it has one (kept ids, given in ascending order), else the next. */
  async add(row: Insertable<MessageTable>, flags: ReadonlyMap<number, number>, reactions: readonly Omit<ReactionTable, "message_id">[], attachments: readonly { id: number; public: boolean }[]): Promise<number> {
    const id = row.id ?? this.nextId;
    this.nextId = Math.max(this.nextId, id + 1);
    this.messages.push({ ...row, id });
    for (const [userId, bits] of flags) this.userMessages.push({ user_id: userId, message_id: id, flags: bits });
    for (const reaction of reactions) this.reactions.push({ ...reaction, message_id: id });
    for (const attachment of attachments) this.links.push({ attachment_id: attachment.id, message_id: id, public: attachment.public });
    if (this.messages.length >= BATCH) await this.flush();
    return id;
  }

  /** Writes what is queued. */
  async flush(): Promise<void> {
    const { tx } = this;
    await insertInChunks(this.messages, (slice) => tx.insertInto("message").values(slice).execute());
    await insertInChunks(this.userMessages, (slice) => tx.insertInto("user_message").values(slice).execute());
    await insertInChunks(this.reactions, (slice) => tx.insertInto("reaction").values(slice).execute());
    await insertInChunks(
      this.links.map(({ attachment_id, message_id }) => ({ attachment_id, message_id })),
      (slice) => tx.insertInto("attachment_message").values(slice).execute(),
    );
    // A file linked from a public channel can be seen by anyone in the organisation.
    const publicIds = [...new Set(this.links.filter((l) => l.public).map((l) => l.attachment_id))];
    if (publicIds.length > 0) await tx.updateTable("attachment").set({ is_realm_public: 1 }).where("id", "in", publicIds).execute();
    this.messages = [];
    this.userMessages = [];
    this.reactions = [];
    this.links = [];
  }

  /** Writes the rest; on PostgreSQL, moves the id sequence past the ids given here. */
  async finish(): Promise<void> {
    await this.flush();
    if (this.dialect === "postgres" && this.nextId > 1) {
      await sql`select setval(pg_get_serial_sequence('message', 'id'), ${this.nextId - 1})`.execute(this.tx);
    }
  }
}
