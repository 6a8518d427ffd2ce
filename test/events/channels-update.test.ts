import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Verona" }, { name: "Denmark" }] });
  await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Closet" }], invite_only: true });
});
afterAll(() => server.stop());

const withSubscribers = { register: { include_subscribers: true } };
const update = (who: FixtureName, params: Record<string, Json>) => server.as(who).patch("/users/me/subscriptions", params);
const streamId = async (name: string) =>
  (await server.app.ctx.db.selectFrom("stream").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;

describe("consistency of /register state and events: PATCH /users/me/subscriptions", () => {
  it("the caller's own view: subscription add for the added channel, then subscription remove", async () => {
    await server.as("othello").post("/users/me/subscriptions", { subscriptions: [{ name: "Denmark" }] });
    const events = await checkAction(server, "othello", () => update("othello", { add: [{ name: "Verona" }], delete: ["Denmark"] }), {
      ...withSubscribers,
      expectEvents: ["subscription:add", "subscription:remove"],
    });
    expect(events[0].subscriptions.map((s: { name: string }) => s.name)).toEqual(["Verona"]);
    expect(events[0].subscriptions[0].subscribers).toEqual([server.users.hamlet.id, server.users.othello.id]);
    expect(events[1].subscriptions).toEqual([{ name: "Denmark", stream_id: await streamId("Denmark") }]);
  });

  it("a peer's view: peer_add then peer_remove", async () => {
    const events = await checkAction(server, "hamlet", () => update("othello", { add: [{ name: "Denmark" }], delete: ["Verona"] }), {
      ...withSubscribers,
      expectEvents: ["subscription:peer_add", "subscription:peer_remove"],
    });
    expect(events.map((e) => [e.op, e.stream_ids, e.user_ids])).toEqual([
      ["peer_add", [await streamId("Denmark")], [server.users.othello.id]],
      ["peer_remove", [await streamId("Verona")], [server.users.othello.id]],
    ]);
  });

  it("creating a channel and leaving a private one: stream create, subscription add, subscription remove, stream delete", async () => {
    await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Closet" }], principals: [server.users.cordelia.id] });
    await checkAction(server, "cordelia", () => update("cordelia", { add: [{ name: "Padua" }], delete: ["Closet"] }), {
      ...withSubscribers,
      // The message is Notification Bot's creation notice in the new channel.
      expectEvents: ["stream:create", "subscription:add", "message", "subscription:remove", "stream:delete"],
    });
  });

  it("others subscribed and unsubscribed through principals get their events and Notification Bot's message", async () => {
    await checkAction(server, "cordelia", () => update("iago", { add: [{ name: "Verona" }], delete: ["Padua"], principals: [server.users.cordelia.id] }), {
      ...withSubscribers,
      expectEvents: ["subscription:add", "message", "subscription:remove"],
    });
  });

  it("a request that fails announces nothing", async () => {
    await checkAction(server, "hamlet", () => update("othello", { add: [{ name: "Never made" }, { name: "Verona" }], delete: ["Nowhere"] }), {
      ...withSubscribers,
      expectEvents: 0,
      changesState: false,
    });
  });
});
