import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { write } from "../../src/context.js";
import { error } from "../harness/client.js";
import { queuesOf, startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe("POST /register", () => {
  it("returns a new queue, last_event_id -1, the version and the realm's limits", async () => {
    const res = await server.as("hamlet").post("/register", {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: "success",
      msg: "",
      queue_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      last_event_id: -1,
      zulip_version: "9.0",
      zulip_feature_level: 277,
      zulip_merge_base: "9.0",
      max_message_length: 10000,
      max_topic_length: 60,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
      event_queue_longpoll_timeout_seconds: 90,
      realm_name: "Zulip Dev",
      realm_description: "",
      realm_url: server.app.ctx.config.externalUrl,
      realm_uri: server.app.ctx.config.externalUrl,
      realm_date_created: Math.floor(Date.UTC(2024, 4, 1, 12) / 1000),
      realm_presence_disabled: false,
      server_presence_ping_interval_seconds: 60,
      server_presence_offline_threshold_seconds: 200,
      server_typing_started_expiry_period_milliseconds: 45000,
    });
    expect(res.body.realm_users.map((u: { user_id: number }) => u.user_id)).toContain(server.users.hamlet.id);
  });

  it("fetch_event_types limits the state; the version keys are always there", async () => {
    const res = await server.as("hamlet").post("/register", { fetch_event_types: ["realm_user"] });
    expect(res.body.realm_users).toBeDefined();
    expect(res.body.max_message_length).toBeUndefined();
    expect(res.body).toMatchObject({ zulip_version: "9.0", zulip_feature_level: 277, zulip_merge_base: "9.0" });
    const bare = await server.as("hamlet").post("/register", { fetch_event_types: [] });
    expect(Object.keys(bare.body).sort()).toEqual(["last_event_id", "msg", "queue_id", "result", "zulip_feature_level", "zulip_merge_base", "zulip_version"]);
  });

  it("event_types also limits the state when fetch_event_types is absent", async () => {
    const res = await server.as("hamlet").post("/register", { event_types: ["realm"] });
    expect(res.body.max_topic_length).toBe(60);
    expect(res.body.realm_users).toBeUndefined();
  });

  it("event_types filters what the queue receives", async () => {
    const hamlet = server.as("hamlet");
    const res = await hamlet.post("/register", { event_types: ["typing"], fetch_event_types: [] });
    await server.as("iago").patch(`/users/${server.users.othello.id}`, { full_name: "Othello" });
    await server.as("cordelia").post("/typing", { op: "stop", to: [server.users.hamlet.id] });
    const events = await hamlet.get("/events", { queue_id: res.body.queue_id, last_event_id: -1, dont_block: true });
    expect(events.body.events.map((e: { type: string }) => e.type)).toEqual(["typing"]);
  });

  it("state and queue are race-free: a change committed while the state is read is folded in and acknowledged", async () => {
    const hamlet = server.users.hamlet;
    // The realm section reads the realm once the queue exists: commit a change right then (in
    // whichever process serves the request).
    const restore: (() => void)[] = [];
    let raced = false;
    for (const { ctx } of server.apps) {
      const original = ctx.realms.get.bind(ctx.realms);
      const queuesBefore = ctx.queues.ofUser(hamlet.id).length;
      restore.push(() => (ctx.realms.get = original));
      ctx.realms.get = async (id: number) => {
        if (raced || ctx.queues.ofUser(hamlet.id).length === queuesBefore) return original(id);
        raced = true;
        for (const undo of restore) undo();
        // A commit, as an action makes it, done while the state is being read.
        await write(ctx, async (_tx, outbox) => outbox.send({ type: "realm_user", op: "update", person: { user_id: server.users.shiva.id, full_name: "Shiva Raced" } }, [hamlet.id]));
        return original(id);
      };
    }
    const res = await server.as("hamlet").post("/register", { event_types: ["realm_user", "realm"] });
    expect(res.body.last_event_id).toBe(0);
    const shiva = res.body.realm_users.find((u: { user_id: number }) => u.user_id === server.users.shiva.id);
    expect(shiva.full_name).toBe("Shiva Raced");
    const next = await server.as("hamlet").get("/events", { queue_id: res.body.queue_id, last_event_id: res.body.last_event_id, dont_block: true });
    expect(next.body.events).toEqual([]);
  });

  it("sets the queue's options from the parameters", async () => {
    const res = await server.as("hamlet").post("/register", {
      apply_markdown: true,
      client_gravatar: false,
      slim_presence: true,
      all_public_streams: true,
      client_capabilities: { notification_settings_null: true, stream_typing_notifications: true, user_settings_object: true },
      narrow: [["stream", "Denmark"]],
      queue_lifespan_secs: 99999999,
      event_types: ["message"],
    });
    const queue = queuesOf(server, server.users.hamlet.id).find((q) => q.id === res.body.queue_id);
    expect(queue?.options).toEqual({
      userId: server.users.hamlet.id,
      realmId: server.users.hamlet.realm_id,
      eventTypes: ["message"],
      narrow: [["stream", "Denmark"]],
      allPublicStreams: true,
      capabilities: { notification_settings_null: true, stream_typing_notifications: true, user_settings_object: true },
      applyMarkdown: true,
      clientGravatar: false,
      slimPresence: true,
      lifespanSecs: 7 * 24 * 3600,
    });
  });
});

describe("POST /register client_capabilities", () => {
  it("accepts capabilities it does not know, with boolean values, and ignores them (Zulip 9's check_dict)", async () => {
    const res = await server.as("hamlet").post("/register", {
      client_capabilities: { notification_settings_null: true, empty_topic_name: true, individual_emoji_changes: false },
      fetch_event_types: [],
    });
    expect(res.status).toBe(200);
    const queue = queuesOf(server, server.users.hamlet.id).find((q) => q.id === res.body.queue_id);
    expect(queue?.options.capabilities).toEqual({ notification_settings_null: true });
  });
});

describe("POST /register errors", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["a narrow operator Zulip does not filter events on", { narrow: [["search", "x"]] }, "Operator search not supported."],
    ["a narrow term that is not a pair", { narrow: [["stream"]] }, "narrow[0] should have exactly 2 items"],
    ["a narrow that is not a list", { narrow: "stream" }, "narrow is not valid JSON"],
    ["client_capabilities without notification_settings_null", { client_capabilities: { bulk_message_deletion: true } }, "notification_settings_null key is missing from client_capabilities"],
    ["an unknown capability whose value is not a boolean", { client_capabilities: { notification_settings_null: true, telepathy: 1 } }, "client_capabilities contains a value that is not a boolean"],
    ["a known capability whose value is not a boolean", { client_capabilities: { notification_settings_null: true, bulk_message_deletion: "yes" } }, 'client_capabilities["bulk_message_deletion"] is not a boolean'],
    ["notification_settings_null that is not a boolean", { client_capabilities: { notification_settings_null: null } }, 'client_capabilities["notification_settings_null"] is not a boolean'],
    ["client_capabilities that is not an object", { client_capabilities: [true] }, "client_capabilities is not a dict"],
    ["include_subscribers that is not true/false/partial", { include_subscribers: "yes" }, "Invalid include_subscribers"],
    ["event_types that is not a list of strings", { event_types: [1] }, "event_types[0] is not a string"],
    ["apply_markdown that is not a boolean", { apply_markdown: "1" }, "apply_markdown is not a boolean"],
  ];
  for (const [what, params, msg] of cases) {
    it(`refuses ${what}`, async () => {
      const res = await server.as("hamlet").post("/register", params as never);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error(msg));
    });
  }

  it("refuses all_public_streams to a guest", async () => {
    const res = await server.as("polonius").post("/register", { all_public_streams: true });
    expect(res.body).toEqual(error("User not authorized for this query"));
  });

  it("ignores event types it does not know", async () => {
    const res = await server.as("hamlet").post("/register", { event_types: ["no_such_type", "realm"] });
    expect(res.status).toBe(200);
    expect(res.body.max_message_length).toBe(10000);
  });
});
