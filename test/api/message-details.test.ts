import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createChannels, sendDirect, sendStream, type Channels } from "./messages-fixtures.js";
import { setRealmProps } from "./streams-helpers.js";

let server: TestServer;
let ch: Channels;

beforeAll(async () => {
  server = await startServer();
  ch = await createChannels(server);
});
afterAll(() => server.stop());

const now = () => Math.floor(server.clock.now() / 1000);
const history = (who: FixtureName, id: number) => server.as(who).get(`/messages/${id}/history`);
const receipts = (who: FixtureName, id: number) => server.as(who).get(`/messages/${id}/read_receipts`);
const markRead = (who: FixtureName, id: number) => server.as(who).post("/messages/flags", { messages: [id], op: "add", flag: "read" });

describe("GET /messages/{message_id}/history", () => {
  it("an unedited message has one version: as sent", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "plain", "just *this*");
    const res = await history("othello", id);
    expect(res.body).toEqual(
      success({ message_history: [{ content: "just *this*", rendered_content: "<p>just <em>this</em></p>", timestamp: now(), topic: "plain", user_id: server.users.hamlet.id }] }),
    );
  });

  it("lists every version oldest first, each with what its edit changed", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "draft", "content before edit");
    const sent = now();
    server.clock.advance(10);
    await server.as("hamlet").patch(`/messages/${id}`, { content: "content after edit" });
    const edited = now();
    server.clock.advance(10);
    await server.as("iago").patch(`/messages/${id}`, { topic: "final" });
    const renamed = now();
    server.clock.advance(10);
    await server.as("iago").patch(`/messages/${id}`, { stream_id: ch.denmark });
    const moved = now();
    const res = await history("hamlet", id);
    expect(res.status).toBe(200);
    const [hamlet, iago] = [server.users.hamlet.id, server.users.iago.id];
    const before = { content: "content before edit", rendered_content: "<p>content before edit</p>" };
    const after = { content: "content after edit", rendered_content: "<p>content after edit</p>" };
    expect(res.body.message_history).toEqual([
      { ...before, timestamp: sent, topic: "draft", user_id: hamlet },
      {
        ...after,
        timestamp: edited,
        topic: "draft",
        user_id: hamlet,
        prev_content: before.content,
        prev_rendered_content: before.rendered_content,
        content_html_diff: '<div><p>content <span class="highlight_text_inserted">after</span> <span class="highlight_text_deleted">before</span> edit</p></div>',
      },
      { ...after, timestamp: renamed, topic: "final", user_id: iago, prev_topic: "draft" },
      { ...after, timestamp: moved, topic: "final", user_id: iago, prev_stream: ch.verona, stream: ch.denmark },
    ]);
  });

  it("a direct message's history, for its participants only", async () => {
    const id = await sendDirect(server, "othello", ["cordelia"], "between us");
    expect((await history("cordelia", id)).body.message_history).toEqual([
      { content: "between us", rendered_content: "<p>between us</p>", timestamp: now(), topic: "", user_id: server.users.othello.id },
    ]);
    expect((await history("hamlet", id)).body).toEqual(error("Invalid message(s)"));
  });

  it("is refused for messages the caller cannot read", async () => {
    const vault = await sendStream(server, "hamlet", "vault", "v", "x");
    const denmark = await sendStream(server, "hamlet", "Denmark", "d", "x");
    expect((await history("othello", vault)).body).toEqual(error("Invalid message(s)"));
    // A guest reads only the public channels they are subscribed to.
    expect((await history("polonius", denmark)).body).toEqual(error("Invalid message(s)"));
    expect((await history("othello", denmark)).status).toBe(200);
    const missing = await history("othello", 999999);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(error("Invalid message(s)"));
  });

  it("is refused, before anything else, where the organization hides edit history", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "hidden", "x");
    await setRealmProps(server, { allow_edit_history: false });
    try {
      for (const target of [id, 999999]) {
        const res = await history("hamlet", target);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(error("Message edit history is disabled in this organization"));
      }
    } finally {
      await setRealmProps(server, { allow_edit_history: true });
    }
  });
});

describe("GET /messages/{message_id}/read_receipts", () => {
  it("is refused while the organization does not share read receipts, after the access check", async () => {
    await setRealmProps(server, { enable_read_receipts: false });
    const id = await sendStream(server, "othello", "Verona", "receipts off", "x");
    const res = await receipts("hamlet", id);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Read receipts are disabled in this organization."));
    expect((await receipts("hamlet", 999999)).body).toEqual(error("Invalid message(s)"));
  });

  describe("where read receipts are on", () => {
    beforeAll(() => setRealmProps(server, { enable_read_receipts: true }));
    afterAll(() => setRealmProps(server, { enable_read_receipts: false }));

    it("lists who read it: never the sender, nor those who keep it private, nor muted or muting users", async () => {
      const id = await sendStream(server, "othello", "Verona", "receipts", "x");
      expect((await receipts("hamlet", id)).body).toEqual(success({ user_ids: [] }));
      await server.as("cordelia").patch("/settings", { send_read_receipts: false });
      for (const who of ["desdemona", "iago", "hamlet", "othello", "cordelia", "polonius"] as const) await markRead(who, id);
      await server.as("hamlet").post(`/users/me/muted_users/${server.users.desdemona.id}`);
      await server.as("polonius").post(`/users/me/muted_users/${server.users.hamlet.id}`);
      try {
        const ids = (names: FixtureName[]) => names.map((n) => server.users[n].id);
        expect((await receipts("hamlet", id)).body).toEqual(success({ user_ids: ids(["iago", "hamlet"]) }));
        expect((await receipts("iago", id)).body).toEqual(success({ user_ids: ids(["desdemona", "iago", "hamlet", "polonius"]) }));
        // Marking it unread again takes one off the list.
        await server.as("iago").post("/messages/flags", { messages: [id], op: "remove", flag: "read" });
        expect((await receipts("hamlet", id)).body).toEqual(success({ user_ids: ids(["hamlet"]) }));
      } finally {
        await server.as("cordelia").patch("/settings", { send_read_receipts: true });
        await server.as("hamlet").delete(`/users/me/muted_users/${server.users.desdemona.id}`);
        await server.as("polonius").delete(`/users/me/muted_users/${server.users.hamlet.id}`);
      }
    });

    it("includes bots that marked it read, leaves out deactivated users", async () => {
      const id = await sendDirect(server, "hamlet", ["bot", "shiva"], "for the bot");
      await markRead("bot", id);
      await markRead("shiva", id);
      expect((await receipts("hamlet", id)).body.user_ids).toEqual([server.users.shiva.id, server.users.bot.id]);
      await server.as("iago").delete(`/users/${server.users.shiva.id}`);
      try {
        expect((await receipts("hamlet", id)).body.user_ids).toEqual([server.users.bot.id]);
      } finally {
        await server.as("iago").post(`/users/${server.users.shiva.id}/reactivate`);
      }
    });

    it("only for messages the caller can read", async () => {
      const id = await sendStream(server, "hamlet", "vault", "v", "x");
      expect((await receipts("othello", id)).body).toEqual(error("Invalid message(s)"));
      expect((await receipts("cordelia", id)).body).toEqual(success({ user_ids: [] }));
    });
  });
});
