import zulip, { type ZulipClient } from "zulip-js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** A zulip-js client configured the way a bot author configures it. */
function clientFor(who: FixtureName): Promise<ZulipClient> {
  const user = server.users[who];
  return zulip({ username: user.delivery_email, apiKey: user.api_key, realm: server.url });
}

/** Waits until a long-poll is parked on one of `userId`'s queues. */
async function someoneWaits(userId: number): Promise<void> {
  for (let i = 0; i < 400 && !server.app.ctx.queues.ofUser(userId).some((q) => q.isWaiting()); i++) await new Promise((r) => setTimeout(r, 5));
}

describe("zulip-js, the JavaScript bindings, against Rookery", () => {
  it("registers a queue, long-polls it until an action wakes it, and deregisters it", async () => {
    const client = await clientFor("hamlet");
    const registered = await client.queues.register({ event_types: ["realm_user", "typing"] });
    expect(registered).toMatchObject({ result: "success", last_event_id: -1, zulip_feature_level: 277 });
    const queueId = String(registered.queue_id);

    const poll = client.events.retrieve({ queue_id: queueId, last_event_id: -1 });
    await someoneWaits(server.users.hamlet.id);
    await server.as("iago").patch(`/users/${server.users.othello.id}`, { full_name: "Othello the Bot-Friendly" });
    const got = await poll;
    expect(got).toEqual({
      result: "success",
      msg: "",
      queue_id: queueId,
      events: [{ type: "realm_user", op: "update", person: { user_id: server.users.othello.id, full_name: "Othello the Bot-Friendly" }, id: 0 }],
    });

    // zulip-js sends a one-person `to` as a JSON list; the sender sees their own typing too.
    const typing = await client.typing.send({ to: [server.users.cordelia.id], op: "start" });
    expect(typing).toEqual({ result: "success", msg: "" });
    const next = await client.events.retrieve({ queue_id: queueId, last_event_id: 0, dont_block: true });
    expect(next.events).toMatchObject([{ type: "typing", op: "start", id: 1 }]);

    expect(await client.queues.deregister({ queue_id: queueId })).toEqual({ result: "success", msg: "" });
    expect(await client.events.retrieve({ queue_id: queueId, last_event_id: 1 })).toEqual({
      result: "error",
      msg: `Bad event queue ID: ${queueId}`,
      code: "BAD_EVENT_QUEUE_ID",
      queue_id: queueId,
    });
  });

  it("callOnEachEvent delivers each event once, in order", async () => {
    // callOnEachEvent loops for ever; when the server stops it logs connection errors, which this test does not want to see.
    vi.spyOn(console, "log").mockImplementation(() => {});
    const client = await clientFor("othello");
    const seen: { id: number; type: string }[] = [];
    void client.callOnEachEvent((event) => seen.push({ id: event.id, type: event.type }), ["typing"]);
    await someoneWaits(server.users.othello.id);
    for (const op of ["start", "stop"] as const) {
      await server.as("cordelia").post("/typing", { op, to: [server.users.othello.id] });
    }
    for (let i = 0; i < 600 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([
      { id: 0, type: "typing" },
      { id: 1, type: "typing" },
    ]);
  });
});
