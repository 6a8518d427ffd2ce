import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams } from "../api/streams-helpers.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const strip = (events: { id?: number }[]) => events.map(({ id: _id, ...e }) => e);
// A presence event does not carry the realm's update id (Zulip's does not either at level 275).
const presenceOpts = { eventTypes: ["presence"], volatileKeys: ["presence_last_update_id"] };

describe("consistency of /register state and events: presence", () => {
  it("a first ping announces the user (legacy format)", async () => {
    const events = await checkAction(server, "othello", () => server.as("hamlet").post("/users/me/presence", { status: "active" }), presenceOpts);
    const ts = Math.floor(server.clock.now() / 1000);
    expect(strip(events)).toEqual([
      {
        type: "presence",
        user_id: server.users.hamlet.id,
        email: server.users.hamlet.email,
        server_timestamp: server.clock.now() / 1000,
        presence: { website: { client: "website", status: "active", timestamp: ts, pushable: false } },
      },
    ]);
  });

  it("coming back online after a while announces again (modern format)", async () => {
    server.clock.advance(300);
    const events = await checkAction(server, "othello", () => server.as("hamlet").post("/users/me/presence", { status: "active" }), {
      ...presenceOpts,
      register: { slim_presence: true },
    });
    expect(events).toHaveLength(1);
  });

  it("a ping that changes nothing announces nothing", async () => {
    server.clock.advance(20);
    const events = await checkAction(server, "othello", () => server.as("hamlet").post("/users/me/presence", { status: "active" }), {
      ...presenceOpts,
      expectEvents: 0,
      changesState: false,
    });
    expect(events).toEqual([]);
  });

  it("turning presence off announces an idle entry in the past", async () => {
    // Well after the user joined: a missing activity time reads as the joining date.
    server.clock.advance(1000);
    const events = await checkAction(server, "othello", () => server.as("cordelia").patch("/settings", { presence_enabled: false }), {
      eventTypes: ["presence", "user_settings"],
      fetchEventTypes: ["presence"],
      volatileKeys: ["presence_last_update_id"],
    });
    expect(events.map((e) => e.presence?.website)).toEqual([
      { client: "website", status: "idle", timestamp: Math.floor(server.clock.now() / 1000) - 320, pushable: false },
    ]);
    await server.as("cordelia").patch("/settings", { presence_enabled: true });
  });

  it("turning presence off, seen in the modern format", async () => {
    server.clock.advance(1000);
    const events = await checkAction(server, "othello", () => server.as("cordelia").patch("/settings", { presence_enabled: false }), {
      eventTypes: ["presence", "realm_user"],
      volatileKeys: ["presence_last_update_id"],
      register: { slim_presence: true },
    });
    expect(events.map((e) => e.presence?.website?.status)).toEqual(["idle"]);
    await server.as("cordelia").patch("/settings", { presence_enabled: true });
  });
});

describe("consistency of /register state and events: status, muting, drafts, alert words", () => {
  it("setting and clearing a status", async () => {
    const set = await checkAction(server, "othello", () => server.as("hamlet").post("/users/me/status", { status_text: "Busy", emoji_name: "car" }));
    expect(strip(set)).toEqual([
      { type: "user_status", user_id: server.users.hamlet.id, status_text: "Busy", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" },
    ]);
    await checkAction(server, "othello", () => server.as("hamlet").post("/users/me/status", { emoji_name: "" }));
    await checkAction(server, "othello", () => server.as("hamlet").post("/users/me/status", { status_text: "" }));
  });

  it("away through the status endpoint", async () => {
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").post("/users/me/status", { away: true }), {
      eventTypes: ["user_status", "user_settings", "update_global_notifications"],
      capabilities: { notification_settings_null: true, user_settings_object: true },
    });
    expect(events.map((e) => e.type)).toEqual(["user_settings", "user_status"]);
    await checkAction(server, "hamlet", () => server.as("hamlet").post("/users/me/status", { away: false }), {
      eventTypes: ["user_status", "user_settings"],
      capabilities: { notification_settings_null: true, user_settings_object: true },
    });
  });

  it("muting a sender of unread messages marks them read", async () => {
    const { cordelia, hamlet } = server.users;
    const id = await server.app.ctx.store.write(async (db) => {
      const { id } = await db
        .insertInto("message")
        .values({ realm_id: hamlet.realm_id, sender_id: cordelia.id, stream_id: null, topic: "", dm_key: [hamlet.id, cordelia.id].sort((a, b) => a - b).join(","), content: "psst", rendered_content: "<p>psst</p>", date_sent: server.clock.now(), last_edit_time: null, edit_history: null, has_link: 0, has_image: 0, has_attachment: 0, is_me_message: 0, client: "test" })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.insertInto("user_message").values([{ user_id: hamlet.id, message_id: id, flags: 0 }, { user_id: cordelia.id, message_id: id, flags: 1 }]).execute();
      return id;
    });
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").post(`/users/me/muted_users/${cordelia.id}`));
    expect(strip(events)).toEqual([
      { type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: [id], all: false },
      { type: "muted_users", muted_users: [{ id: cordelia.id, timestamp: Math.floor(server.clock.now() / 1000) }] },
    ]);
    await server.as("hamlet").delete(`/users/me/muted_users/${cordelia.id}`);
  });

  it("muting and unmuting", async () => {
    const muted = await checkAction(server, "hamlet", () => server.as("hamlet").post(`/users/me/muted_users/${server.users.othello.id}`));
    expect(strip(muted)).toEqual([{ type: "muted_users", muted_users: [{ id: server.users.othello.id, timestamp: Math.floor(server.clock.now() / 1000) }] }]);
    const unmuted = await checkAction(server, "hamlet", () => server.as("hamlet").delete(`/users/me/muted_users/${server.users.othello.id}`));
    expect(strip(unmuted)).toEqual([{ type: "muted_users", muted_users: [] }]);
  });

  it("drafts: add, update, remove", async () => {
    const { Denmark } = await createStreams(server, "iago", ["Denmark"]);
    let id = 0;
    const added = await checkAction(server, "hamlet", async () => {
      const res = await server.as("hamlet").post("/drafts", { drafts: [{ type: "stream", to: [Denmark], topic: "t", content: "draft" }] });
      id = res.body.ids[0];
    });
    expect(strip(added)).toEqual([
      { type: "drafts", op: "add", drafts: [{ id, type: "stream", to: [Denmark], topic: "t", content: "draft", timestamp: Math.floor(server.clock.now() / 1000) }] },
    ]);
    server.clock.advance(5);
    const updated = await checkAction(server, "hamlet", () =>
      server.as("hamlet").patch(`/drafts/${id}`, { draft: { type: "private", to: [server.users.othello.id], topic: "", content: "edited" } }),
    );
    expect(strip(updated)).toEqual([
      { type: "drafts", op: "update", draft: { id, type: "private", to: [server.users.othello.id], topic: "", content: "edited", timestamp: Math.floor(server.clock.now() / 1000) } },
    ]);
    const removed = await checkAction(server, "hamlet", () => server.as("hamlet").delete(`/drafts/${id}`));
    expect(strip(removed)).toEqual([{ type: "drafts", op: "remove", draft_id: id }]);
  });

  it("alert words: add and remove", async () => {
    const added = await checkAction(server, "hamlet", () => server.as("hamlet").post("/users/me/alert_words", { alert_words: ["ship", "it"] }));
    expect(strip(added)).toEqual([{ type: "alert_words", alert_words: ["ship", "it"] }]);
    const removed = await checkAction(server, "hamlet", () => server.as("hamlet").delete("/users/me/alert_words", { alert_words: ["IT"] }));
    expect(strip(removed)).toEqual([{ type: "alert_words", alert_words: ["ship"] }]);
  });
});
