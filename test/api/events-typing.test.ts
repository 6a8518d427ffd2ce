import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Client, type Json } from "../harness/client.js";
import type { Db } from "../../src/db/index.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";

let server: TestServer;
let denmark: number;
let secret: number;
let announce: number;

beforeAll(async () => {
  server = await startServer();
  const channel = (name: string, inviteOnly: number, policy: number, members: FixtureName[]) => server.app.ctx.store.write((db) => insertChannel(db, name, inviteOnly, policy, members));
  const insertChannel = async (db: Db, name: string, inviteOnly: number, policy: number, members: FixtureName[]) => {
    const { id } = await db
      .insertInto("stream")
      .values({
        realm_id: server.users.hamlet.realm_id,
        name,
        description: "",
        rendered_description: "",
        invite_only: inviteOnly,
        is_web_public: 0,
        history_public_to_subscribers: 1,
        stream_post_policy: policy,
        message_retention_days: null,
        can_remove_subscribers_group: 0,
        date_created: server.clock.now(),
        creator_id: null,
        first_message_id: null,
        deactivated: 0,
        email_token: `typing-${name}`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const who of members) {
      await db
        .insertInto("subscription")
        .values({ user_id: server.users[who].id, stream_id: id, active: 1, is_user_active: 1, color: "#76ce90", is_muted: 0, pin_to_top: 0 })
        .execute();
    }
    return id;
  };
  denmark = await channel("Denmark", 0, 1, ["hamlet", "othello", "cordelia"]);
  secret = await channel("secret", 1, 1, ["othello"]);
  announce = await channel("announce", 0, 2, ["hamlet", "iago"]);
});
afterAll(() => server.stop());

async function queueOf(client: Client, capabilities: Record<string, boolean> = { notification_settings_null: true }): Promise<() => Promise<Json[]>> {
  const res = await client.post("/register", { event_types: ["typing"], fetch_event_types: [], client_capabilities: capabilities });
  const queueId = res.body.queue_id;
  return async () => (await client.get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events;
}

const streamCapable = { notification_settings_null: true, stream_typing_notifications: true };

describe("POST /typing to a direct conversation", () => {
  it("reaches every participant, the sender included, and no one else", async () => {
    const [hamlet, othello, iago] = [await queueOf(server.as("hamlet")), await queueOf(server.as("othello")), await queueOf(server.as("iago"))];
    const res = await server.as("hamlet").post("/typing", { op: "start", to: [server.users.othello.id] });
    expect(res.body).toEqual(success());
    const expected = {
      type: "typing",
      op: "start",
      message_type: "direct",
      sender: { user_id: server.users.hamlet.id, email: "hamlet@zulip.com" },
      recipients: [
        { user_id: server.users.othello.id, email: "othello@zulip.com" },
        { user_id: server.users.hamlet.id, email: "hamlet@zulip.com" },
      ],
      id: 0,
    };
    expect(await hamlet()).toEqual([expected]);
    expect(await othello()).toEqual([expected]);
    expect(await iago()).toEqual([]);
  });

  it("skips recipients who turned typing notifications off", async () => {
    const { store } = server.app.ctx;
    await store.write((db) => db.updateTable("user").set({ settings: JSON.stringify({ receives_typing_notifications: false }) }).where("id", "=", server.users.cordelia.id).execute());
    const cordelia = await queueOf(server.as("cordelia"));
    const hamlet = await queueOf(server.as("hamlet"));
    await server.as("hamlet").post("/typing", { op: "stop", to: [server.users.cordelia.id] });
    expect(await cordelia()).toEqual([]);
    expect(await hamlet()).toMatchObject([{ op: "stop" }]);
    await store.write((db) => db.updateTable("user").set({ settings: "{}" }).where("id", "=", server.users.cordelia.id).execute());
  });

  const errors: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["no op", { to: [1] }, error("Missing 'op' argument", "REQUEST_VARIABLE_MISSING", { var_name: "op" })],
    ["an unknown op", { op: "pause", to: [1] }, error("Invalid op")],
    ["the retired type private", { type: "private", op: "start", to: [1] }, error("Invalid type")],
    ["no to", { op: "start" }, error("Missing 'to' argument")],
    ["an empty to", { op: "start", to: [] }, error("Empty 'to' list")],
    ["an unknown user", { op: "start", to: [9999] }, error("Invalid user ID 9999")],
    ["to that is not a list of integers", { op: "start", to: ["x"] }, error("to[0] is not an integer")],
  ];
  for (const [what, params, body] of errors) {
    it(`refuses ${what}`, async () => {
      const res = await server.as("hamlet").post("/typing", params as never);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(body);
    });
  }
});

describe("POST /typing to a channel topic", () => {
  it("reaches the subscribers whose clients understand channel typing", async () => {
    const othello = await queueOf(server.as("othello"), streamCapable);
    const cordelia = await queueOf(server.as("cordelia"));
    const iago = await queueOf(server.as("iago"), streamCapable);
    const res = await server.as("hamlet").post("/typing", { type: "channel", op: "start", stream_id: denmark, topic: "castle" });
    expect(res.body).toEqual(success());
    expect(await othello()).toEqual([
      { type: "typing", op: "start", message_type: "stream", sender: { user_id: server.users.hamlet.id, email: "hamlet@zulip.com" }, stream_id: denmark, topic: "castle", id: 0 },
    ]);
    expect(await cordelia()).toEqual([]);
    expect(await iago()).toEqual([]);
  });

  it("accepts type stream as well", async () => {
    const othello = await queueOf(server.as("othello"), streamCapable);
    await server.as("hamlet").post("/typing", { type: "stream", op: "stop", stream_id: denmark, topic: "castle" });
    expect(await othello()).toMatchObject([{ op: "stop", message_type: "stream" }]);
  });

  it("refuses what Zulip refuses", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: "channel", op: "start", topic: "x" }, "Missing channel ID"],
      [{ type: "channel", op: "start", stream_id: denmark }, "Missing topic"],
      [{ type: "channel", op: "start", stream_id: 99999, topic: "x" }, "Invalid channel ID"],
      [{ type: "channel", op: "start", stream_id: secret, topic: "x" }, "Invalid channel ID"],
      [{ type: "channel", op: "start", stream_id: announce, topic: "x" }, "Only organization administrators can send to this channel."],
    ];
    for (const [params, msg] of cases) {
      const res = await server.as("hamlet").post("/typing", params as never);
      expect([res.status, res.body]).toEqual([400, error(msg)]);
    }
    const guest = await server.as("polonius").post("/typing", { type: "channel", op: "start", stream_id: denmark, topic: "x" });
    expect(guest.body).toEqual(error("Invalid channel ID"));
  });

  it("lets an administrator type in an administrators-only channel", async () => {
    const hamlet = await queueOf(server.as("hamlet"), streamCapable);
    const res = await server.as("iago").post("/typing", { type: "channel", op: "start", stream_id: announce, topic: "news" });
    expect(res.body).toEqual(success());
    expect(await hamlet()).toMatchObject([{ stream_id: announce, topic: "news" }]);
  });
});
