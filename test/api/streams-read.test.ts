import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams, getChannels, setRealmProps } from "./streams-helpers.js";

let server: TestServer;
let ids: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  ids = {
    ...(await createStreams(server, "iago", ["Rome", "Default lobby"])),
    ...(await createStreams(server, "hamlet", ["Hamlet only"], { invite_only: true })),
    ...(await createStreams(server, "hamlet", ["Shared secret"], { invite_only: true, history_public_to_subscribers: true })),
  };
  await server.as("iago").post("/default_streams", { stream_id: ids["Default lobby"]! });
  await setRealmProps(server, { enable_spectator_access: true });
  Object.assign(ids, await createStreams(server, "desdemona", ["Web square"], { is_web_public: true }));
});
afterAll(() => server.stop());

const names = (body: { streams: { name: string }[] }) => body.streams.map((s) => s.name);

describe("GET /streams", () => {
  it("gives members public and subscribed channels, sorted by name", async () => {
    const res = await getChannels(server, "hamlet", "/streams");
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(["Default lobby", "Hamlet only", "Rome", "Shared secret", "Web square"]);
    expect(res.body.streams.find((s: { name: string }) => s.name === "Rome")).toEqual({
      can_remove_subscribers_group: expect.any(Number),
      creator_id: server.users.iago.id,
      date_created: 1714564800,
      description: "",
      first_message_id: null,
      history_public_to_subscribers: true,
      invite_only: false,
      is_announcement_only: false,
      is_web_public: false,
      message_retention_days: null,
      name: "Rome",
      rendered_description: "",
      stream_id: ids.Rome,
      stream_post_policy: 1,
      stream_weekly_traffic: null,
    });
  });

  it("never shows another member a private channel", async () => {
    expect(names((await getChannels(server, "othello", "/streams")).body)).toEqual(["Default lobby", "Rome", "Web square"]);
    expect(names((await getChannels(server, "othello", "/streams", { include_public: false })).body)).toEqual([]);
  });

  it("gives guests only web-public and subscribed channels", async () => {
    expect(names((await getChannels(server, "polonius", "/streams")).body)).toEqual([]);
    expect(names((await getChannels(server, "polonius", "/streams", { include_web_public: true })).body)).toEqual(["Web square"]);
    await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Hamlet only" }], principals: [server.users.polonius.id] });
    expect(names((await getChannels(server, "polonius", "/streams")).body)).toEqual(["Hamlet only"]);
  });

  it("include_all_active is for administrators only", async () => {
    expect((await server.as("hamlet").get("/streams", { include_all_active: true })).body).toEqual(error("User not authorized for this query"));
    expect((await server.as("shiva").get("/streams", { include_all_active: true })).body).toEqual(error("User not authorized for this query"));
    const all = await getChannels(server, "iago", "/streams", { include_all_active: true });
    expect(names(all.body)).toEqual(["Default lobby", "Hamlet only", "Rome", "Shared secret", "Web square"]);
  });

  it("include_default adds the default channels and an is_default flag on every channel", async () => {
    const res = await getChannels(server, "othello", "/streams", { include_public: false, include_subscribed: false, include_default: true });
    expect(res.body.streams.map((s: { name: string; is_default: boolean }) => [s.name, s.is_default])).toEqual([["Default lobby", true]]);
    const all = await getChannels(server, "othello", "/streams", { include_default: true });
    expect(all.body.streams.map((s: { is_default: boolean }) => s.is_default)).toEqual([true, false, false]);
  });

  it("include_owner_subscribed gives a bot its owner's channels", async () => {
    const res = await getChannels(server, "bot", "/streams", { include_public: false, include_owner_subscribed: true });
    expect(names(res.body)).toEqual(["Hamlet only", "Shared secret"]);
    expect(names((await getChannels(server, "othello", "/streams", { include_public: false, include_owner_subscribed: true })).body)).toEqual([]);
  });

  it("rejects non-JSON booleans", async () => {
    expect((await server.as("hamlet").get("/streams", { include_public: "yes" })).body).toEqual(error("include_public is not valid JSON"));
    expect((await server.as("hamlet").get("/streams", { include_public: 1 })).body).toEqual(error("include_public is not a boolean"));
  });
});

describe("GET /streams/{stream_id}", () => {
  it("returns one channel to those who can access it", async () => {
    const res = await getChannels(server, "othello", `/streams/${ids.Rome}`);
    expect(res.body).toEqual(success({ stream: expect.objectContaining({ name: "Rome", stream_id: ids.Rome }) }));
  });

  it("hides private channels behind Invalid channel ID, except from administrators", async () => {
    expect((await server.as("othello").get(`/streams/${ids["Hamlet only"]}`)).body).toEqual(error("Invalid channel ID"));
    expect((await server.as("othello").get("/streams/99999")).body).toEqual(error("Invalid channel ID"));
    expect((await getChannels(server, "iago", `/streams/${ids["Hamlet only"]}`)).body.stream.name).toBe("Hamlet only");
  });
});

describe("guest access", () => {
  it("a guest reaches web-public and subscribed channels only", async () => {
    expect((await server.as("polonius").get(`/streams/${ids.Rome}`)).body).toEqual(error("Invalid channel ID"));
    expect((await server.as("polonius").get("/get_stream_id", { stream: "Rome" })).body).toEqual(error("Invalid channel name 'Rome'"));
    expect((await server.as("polonius").get(`/users/me/${ids.Rome}/topics`)).body).toEqual(error("Invalid channel ID"));
    expect((await server.as("polonius").get("/get_stream_id", { stream: "Web square" })).body).toEqual(success({ stream_id: ids["Web square"] }));
    expect((await getChannels(server, "polonius", `/streams/${ids["Web square"]}`)).body.stream.name).toBe("Web square");
  });

  it("a guest's /register lists only what they may see", async () => {
    const state = (await server.as("polonius").post("/register", { fetch_event_types: ["subscription", "stream", "default_streams"] })).body;
    expect(state.never_subscribed.map((s: { name: string }) => s.name)).toEqual(["Web square"]);
    expect(state.streams.map((s: { name: string }) => s.name)).toEqual(["Hamlet only", "Web square"]);
    expect(state.subscriptions.map((s: { name: string }) => s.name)).toEqual(["Hamlet only"]);
    expect(state.realm_default_streams).toEqual([]);
  });

  it("a member's /register: never_subscribed has public channels, administrators' also private ones", async () => {
    const member = (await server.as("othello").post("/register", { fetch_event_types: ["subscription"], include_subscribers: "true" })).body;
    expect(member.never_subscribed.map((s: { name: string }) => s.name)).toEqual(["Default lobby", "Rome", "Web square"]);
    const admin = (await server.as("shiva").post("/register", { fetch_event_types: ["subscription"] })).body;
    expect(admin.never_subscribed.map((s: { name: string }) => s.name)).toEqual(["Default lobby", "Rome", "Web square"]);
    const owner = (await server.as("desdemona").post("/register", { fetch_event_types: ["subscription"], include_subscribers: "true" })).body;
    const hidden = owner.never_subscribed.find((s: { name: string }) => s.name === "Hamlet only");
    expect(hidden.subscribers).toContain(server.users.hamlet.id);
  });
});

describe("GET /get_stream_id", () => {
  it("finds a channel by name, case-insensitively", async () => {
    expect((await server.as("othello").get("/get_stream_id", { stream: "rome" })).body).toEqual(success({ stream_id: ids.Rome }));
  });

  it("ignores spaces around the name, and names it as sent when it finds nothing", async () => {
    expect((await server.as("othello").get("/get_stream_id", { stream: "  Rome " })).body).toEqual(success({ stream_id: ids.Rome }));
    expect((await server.as("othello").get("/get_stream_id", { stream: " Nowhere " })).body).toEqual(error("Invalid channel name ' Nowhere '"));
  });

  it("answers Invalid channel name for missing and inaccessible channels", async () => {
    expect((await server.as("othello").get("/get_stream_id", { stream: "Hamlet only" })).body).toEqual(error("Invalid channel name 'Hamlet only'"));
    expect((await server.as("othello").get("/get_stream_id", { stream: "Nowhere" })).body).toEqual(error("Invalid channel name 'Nowhere'"));
    expect((await server.as("iago").get("/get_stream_id", { stream: "Hamlet only" })).body).toEqual(error("Invalid channel name 'Hamlet only'"));
    expect((await server.as("othello").get("/get_stream_id", {})).body).toEqual(
      error("Missing 'stream' argument", "REQUEST_VARIABLE_MISSING", { var_name: "stream" }),
    );
  });
});

describe("GET /users/me/{stream_id}/topics", () => {
  let n = 0;
  async function post(streamId: number, topic: string, recipients: number[]): Promise<number> {
    return server.app.ctx.store.write(async (db) => {
      const { id } = await db
        .insertInto("message")
        .values({ realm_id: server.users.hamlet.realm_id, sender_id: server.users.hamlet.id, stream_id: streamId, topic, content: `m${++n}`, rendered_content: "<p>m</p>", date_sent: 1, dm_key: "", has_link: 0, has_image: 0, has_attachment: 0, is_me_message: 0, client: "test" })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.insertInto("user_message").values(recipients.map((user_id) => ({ user_id, message_id: id, flags: 0 }))).execute();
      return id;
    });
  }

  it("lists topics newest first with their max_id and the newest spelling", async () => {
    const a = await post(ids.Rome!, "Forum", [server.users.iago.id]);
    const b = await post(ids.Rome!, "senate", [server.users.iago.id]);
    const c = await post(ids.Rome!, "forum", [server.users.iago.id]);
    expect(a).toBeLessThan(b);
    const res = await server.as("othello").get(`/users/me/${ids.Rome}/topics`);
    expect(res.body).toEqual(success({ topics: [{ name: "forum", max_id: c }, { name: "senate", max_id: b }] }));
  });

  it("in a private channel without shared history, shows only topics of messages the user received", async () => {
    const hamlet = server.users.hamlet.id;
    await post(ids["Hamlet only"]!, "before othello", [hamlet]);
    await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Hamlet only" }], principals: [server.users.othello.id] });
    const after = await post(ids["Hamlet only"]!, "after othello", [hamlet, server.users.othello.id]);
    expect((await server.as("othello").get(`/users/me/${ids["Hamlet only"]}/topics`)).body).toEqual(success({ topics: [{ name: "after othello", max_id: after }] }));
    expect((await server.as("hamlet").get(`/users/me/${ids["Hamlet only"]}/topics`)).body.topics.map((t: { name: string }) => t.name)).toEqual([
      "after othello",
      "before othello",
    ]);
  });

  it("with shared history, shows every topic to subscribers; nothing to outsiders", async () => {
    const early = await post(ids["Shared secret"]!, "old news", [server.users.hamlet.id]);
    await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Shared secret" }], principals: [server.users.cordelia.id] });
    expect((await server.as("cordelia").get(`/users/me/${ids["Shared secret"]}/topics`)).body).toEqual(success({ topics: [{ name: "old news", max_id: early }] }));
    expect((await server.as("othello").get(`/users/me/${ids["Shared secret"]}/topics`)).body).toEqual(error("Invalid channel ID"));
    expect((await server.as("iago").get(`/users/me/${ids["Shared secret"]}/topics`)).body).toEqual(error("Invalid channel ID"));
  });

  it("answers an empty list for a channel without messages", async () => {
    expect((await server.as("othello").get(`/users/me/${ids["Default lobby"]}/topics`)).body).toEqual(success({ topics: [] }));
  });
});
