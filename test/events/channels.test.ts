import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const withSubscribers = { register: { include_subscribers: true } };
const subscribe = (who: Parameters<TestServer["as"]>[0], params: Record<string, Json>) => server.as(who).post("/users/me/subscriptions", params);
const streamId = async (name: string) =>
  (await server.app.ctx.db.selectFrom("stream").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;

describe("consistency of /register state and events: channels", () => {
  it("creating a public channel: stream create to everyone, subscription add and peer_add", async () => {
    const creator = await checkAction(server, "hamlet", () => subscribe("hamlet", { subscriptions: [{ name: "Verona" }] }), {
      ...withSubscribers,
      // The message is Notification Bot's creation notice in the new channel, which its creator receives.
      expectEvents: ["stream:create", "subscription:add", "message"],
    });
    expect(creator[1].subscriptions[0]).toMatchObject({ name: "Verona", subscribers: [server.users.hamlet.id], color: "#76ce90" });
    const observer = await checkAction(server, "othello", () => subscribe("cordelia", { subscriptions: [{ name: "Rome" }] }), {
      ...withSubscribers,
      expectEvents: ["stream:create", "subscription:peer_add"],
    });
    expect(observer[1]).toMatchObject({ stream_ids: [await streamId("Rome")], user_ids: [server.users.cordelia.id] });
  });

  it("a guest learns nothing of a new public channel", async () => {
    await checkAction(server, "polonius", () => subscribe("hamlet", { subscriptions: [{ name: "Padua" }] }), { expectEvents: 0, changesState: false });
  });

  it("creating a private channel: administrators and subscribers see it, other members get nothing", async () => {
    await checkAction(server, "iago", () => subscribe("hamlet", { subscriptions: [{ name: "Closet" }], invite_only: true }), {
      ...withSubscribers,
      expectEvents: ["stream:create", "subscription:peer_add"],
    });
    await checkAction(server, "othello", () => subscribe("hamlet", { subscriptions: [{ name: "Closet two" }], invite_only: true }), {
      expectEvents: 0,
      changesState: false,
    });
  });

  it("a member creating a private channel learns of it through their own stream create", async () => {
    await checkAction(server, "cordelia", () => subscribe("cordelia", { subscriptions: [{ name: "Cordelia's room" }], invite_only: true }), {
      ...withSubscribers,
      // The message is Notification Bot's creation notice in the new channel, which its creator receives.
      expectEvents: ["stream:create", "subscription:add", "message"],
    });
  });

  it("being added to a private channel by someone else: stream create then subscription add", async () => {
    const events = await checkAction(server, "othello", () => subscribe("hamlet", { subscriptions: [{ name: "Closet" }], principals: ["othello@zulip.com"] }), {
      ...withSubscribers,
      // The message is Notification Bot's "subscribed you" DM (zerver/views/streams.py send_messages_for_new_subscribers).
      expectEvents: ["stream:create", "subscription:add", "message"],
    });
    expect(events[1].subscriptions[0].subscribers).toEqual([server.users.hamlet.id, server.users.othello.id]);
  });

  it("a guest added to a public channel gets it created for them", async () => {
    await checkAction(server, "polonius", () => subscribe("hamlet", { subscriptions: [{ name: "Padua" }], principals: ["polonius@zulip.com"] }), {
      ...withSubscribers,
      expectEvents: ["stream:create", "subscription:add", "message"],
    });
  });

  it("peers see subscriptions change in both directions", async () => {
    await checkAction(server, "hamlet", () => subscribe("othello", { subscriptions: [{ name: "Verona" }] }), {
      ...withSubscribers,
      expectEvents: ["subscription:peer_add"],
    });
    await checkAction(server, "hamlet", () => server.as("othello").delete("/users/me/subscriptions", { subscriptions: ["Verona"] }), {
      ...withSubscribers,
      expectEvents: ["subscription:peer_remove"],
    });
  });

  it("unsubscribing from a public channel moves it to unsubscribed", async () => {
    await checkAction(server, "cordelia", () => server.as("cordelia").delete("/users/me/subscriptions", { subscriptions: ["Rome"] }), {
      ...withSubscribers,
      expectEvents: ["subscription:remove"],
    });
  });

  it("leaving a private channel: subscription remove, then stream delete for a non-administrator", async () => {
    await checkAction(server, "othello", () => server.as("othello").delete("/users/me/subscriptions", { subscriptions: ["Closet"] }), {
      ...withSubscribers,
      expectEvents: ["subscription:remove", "stream:delete"],
    });
  });

  it("personal properties: one update each, two for is_muted", async () => {
    const id = await streamId("Verona");
    const events = await checkAction(
      server,
      "hamlet",
      () =>
        server.as("hamlet").post("/users/me/subscriptions/properties", {
          subscription_data: [
            { stream_id: id, property: "color", value: "#aabbcc" },
            { stream_id: id, property: "is_muted", value: true },
            { stream_id: id, property: "desktop_notifications", value: true },
          ],
        }),
      { expectEvents: ["subscription:update", "subscription:update", "subscription:update", "subscription:update"] },
    );
    expect(events.map((e) => [e.property, e.value])).toEqual([
      ["color", "#aabbcc"],
      ["in_home_view", false],
      ["is_muted", true],
      ["desktop_notifications", true],
    ]);
  });

  it("a null notification setting reads as the user's default without notification_settings_null", async () => {
    await checkAction(server, "othello", () => subscribe("othello", { subscriptions: [{ name: "Milan" }] }), {
      capabilities: { notification_settings_null: false },
      // The message is Notification Bot's creation notice in the new channel, which its creator receives.
      expectEvents: ["stream:create", "subscription:add", "message"],
    });
  });

  it("channel updates: description, name, post policy, privacy", async () => {
    const id = await streamId("Verona");
    const desc = await checkAction(server, "othello", () => server.as("iago").patch(`/streams/${id}`, { description: "Fair" }), {
      expectEvents: ["stream:update"],
    });
    expect(desc[0]).toMatchObject({ property: "description", value: "Fair", rendered_description: "<p>Fair</p>", name: "Verona", stream_id: id });
    await checkAction(server, "hamlet", () => server.as("iago").patch(`/streams/${id}`, { new_name: "Fair Verona" }), { expectEvents: ["stream:update"] });
    const policy = await checkAction(server, "hamlet", () => server.as("iago").patch(`/streams/${id}`, { stream_post_policy: 2 }), {
      expectEvents: ["stream:update", "stream:update"],
    });
    expect(policy.map((e) => [e.property, e.value])).toEqual([
      ["stream_post_policy", 2],
      ["is_announcement_only", true],
    ]);
  });

  it("making a channel private: subscribers get update, others lose it; and back", async () => {
    const id = await streamId("Padua");
    await checkAction(server, "hamlet", () => server.as("iago").patch(`/streams/${id}`, { is_private: true }), {
      ...withSubscribers,
      expectEvents: ["stream:update"],
    });
    await checkAction(server, "othello", () => server.as("iago").patch(`/streams/${id}`, { description: "x" }), { expectEvents: 0, changesState: false });
    await subscribe("hamlet", { subscriptions: [{ name: "Padua" }], principals: ["iago@zulip.com"] });
    await checkAction(server, "othello", () => server.as("iago").patch(`/streams/${id}`, { is_private: false }), {
      ...withSubscribers,
      expectEvents: ["stream:create", "subscription:peer_add", "stream:update"],
    });
    await checkAction(server, "cordelia", () => server.as("iago").patch(`/streams/${id}`, { is_private: true }), {
      ...withSubscribers,
      expectEvents: ["stream:delete"],
    });
  });

  it("default channels: default_streams events", async () => {
    const id = await streamId("Milan");
    await checkAction(server, "hamlet", () => server.as("iago").post("/default_streams", { stream_id: id }), { expectEvents: ["default_streams"] });
    await checkAction(server, "hamlet", () => server.as("iago").delete("/default_streams", { stream_id: id }), { expectEvents: ["default_streams"] });
    await checkAction(server, "hamlet", () => server.as("iago").patch(`/streams/${id}`, { is_default_stream: true }), { expectEvents: ["default_streams"] });
  });

  it("a new user joins the default channels: peers get peer_add", async () => {
    await checkAction(server, "othello", () => server.as("iago").post("/users", { email: "newbie@zulip.com", password: "pw-123456", full_name: "New Bie" }), {
      ...withSubscribers,
    });
  });

  it("deactivation drops a user from subscriber lists; reactivation sends peer_add", async () => {
    const id = server.users.othello.id;
    await checkAction(server, "hamlet", () => server.as("iago").delete(`/users/${id}`), withSubscribers);
    const events = await checkAction(server, "hamlet", () => server.as("iago").post(`/users/${id}/reactivate`), withSubscribers);
    expect(events.some((e) => e.type === "subscription" && e.op === "peer_add")).toBe(true);
  });

  it("archiving a channel: stream delete to everyone who could see it", async () => {
    const id = await streamId("Milan");
    // Milan is a default channel by now (the test above): Zulip first drops it from the defaults.
    await checkAction(server, "hamlet", () => server.as("iago").delete(`/streams/${id}`), { ...withSubscribers, expectEvents: ["default_streams", "stream:delete"] });
  });

  it("topic visibility: muted_topics then user_topic, nothing when unchanged", async () => {
    const id = await streamId("Fair Verona");
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").post("/user_topics", { stream_id: id, topic: "Duel", visibility_policy: 1 }), {
      expectEvents: ["muted_topics", "user_topic"],
    });
    expect(events[1]).toMatchObject({ stream_id: id, topic_name: "Duel", visibility_policy: 1, last_updated: 1714564800 });
    await checkAction(server, "hamlet", () => server.as("hamlet").post("/user_topics", { stream_id: id, topic: "Duel", visibility_policy: 3 }), {
      expectEvents: ["muted_topics", "user_topic"],
    });
    await checkAction(server, "hamlet", () => server.as("hamlet").patch("/users/me/subscriptions/muted_topics", { stream_id: id, topic: "Feast", op: "add" }), {
      eventTypes: ["muted_topics"],
      expectEvents: ["muted_topics"],
    });
    await checkAction(server, "hamlet", () => server.as("hamlet").post("/user_topics", { stream_id: id, topic: "Duel", visibility_policy: 3 }), {
      expectEvents: 0,
      changesState: false,
    });
  });
});
