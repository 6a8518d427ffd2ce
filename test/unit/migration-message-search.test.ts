import { sql, type SqlBool } from "kysely";
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/db/index.js";
import { parseSearch, searchCondition } from "../../src/lib/messages/search.js";
import { notificationBotRow } from "../../src/db/system-bots.js";
import { testBackend } from "../harness/server.js";
import { databaseBefore } from "./migration-helpers.js";

describe("migration 007-message-search", () => {
  it("indexes the messages that existed before it", async () => {
    const { url, db, drop } = await databaseBefore("007-message-search");
    const realm = await db
      .insertInto("realm")
      .values({ string_id: "old", name: "Old realm", description: "", date_created: 1600000000000, deactivated: 0, props: "{}" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const sender = await db.insertInto("user").values(notificationBotRow(realm.id, 1600000000000)).returning("id").executeTakeFirstOrThrow();
    const message = (topic: string, html: string) => ({
      realm_id: realm.id,
      sender_id: sender.id,
      stream_id: null,
      topic,
      dm_key: "",
      content: html,
      rendered_content: html,
      date_sent: 1600000000000,
      last_edit_time: null,
      edit_history: null,
      has_link: 0,
      has_image: 0,
      has_attachment: 0,
      is_me_message: 0,
      client: "test",
    });
    const rows = await db
      .insertInto("message")
      .values([message("walks", "<p>nothing else</p>"), message("news", '<p>they <a href="https://example.org/zebra">walked</a></p>'), message("news", "<p>zebra</p>")])
      .returning("id")
      .execute();
    await db.destroy();
    const store = await openStore(url);
    try {
      const found = async (operand: string) => {
        const condition = await searchCondition(store.db, testBackend(), parseSearch(operand));
        const hits = await store.db.selectFrom("message as m").select("m.id").where(sql<SqlBool>`${condition}`).orderBy("m.id").execute();
        return hits.map((r) => r.id);
      };
      expect(await found("walking")).toEqual([rows[0]?.id, rows[1]?.id]);
      expect(await found("zebra")).toEqual([rows[2]?.id]);
      expect(await found("href")).toEqual([]);
    } finally {
      await store.close();
      await drop();
    }
  });
});
