import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error } from "../harness/client.js";
import { CLUSTER_SKIP_REASON, clusterBackends, startCluster, type TestCluster } from "../harness/cluster.js";

// Three processes in this one: process A "dies" (stops reading the stream and leaves the members
// without handing its queues over, as after kill -9; its memory is kept so that the test can
// compare), and a request through B rebuilds A's queue from its row, the stream and A's side log:
// the very events A held, with their ids (messages, typing, presence off the stream, a heartbeat),
// then what came after. test/cluster/queues-crash.test.ts does it to real processes under load.
const backends = clusterBackends();
if (!backends) console.log(CLUSTER_SKIP_REASON);

let cluster: TestCluster;
let redis: Redis;
beforeAll(async () => {
  if (!backends) return;
  cluster = await startCluster(3);
  redis = new Redis(backends.redisUrl);
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

describe.skipIf(!backends)("a queue of a process that died", () => {
  it("is rebuilt through another process with exactly the events it held, same ids, then served there and through a third; asked through two at once, by one; one whose stream entries were trimmed is BAD_EVENT_QUEUE_ID", async () => {
    const { users, apps, clock } = cluster;
    const a = apps[0]!;
    const reg = await cluster.as("iago", 0).post("/register", { slim_presence: true });
    expect(reg.status).toBe(200);
    const queueId: string = reg.body.queue_id;
    const lost = await cluster.as("iago", 0).post("/register", { event_types: ["message"] });
    const lostId: string = lost.body.queue_id;
    const contested = await cluster.as("hamlet", 0).post("/register", { event_types: ["message"] });
    const contestedId: string = contested.body.queue_id;

    // A heartbeat (it goes through A's side log), which the client acknowledges.
    a.ctx.queues.heartbeatMs = 20;
    const beat = await cluster.as("iago", 1).get("/events", { queue_id: queueId, last_event_id: -1 });
    expect(beat.body.events).toEqual([{ type: "heartbeat", id: 0 }]);
    a.ctx.queues.heartbeatMs = undefined;

    // Then, unacknowledged: messages and a star through B, typing through C, presence through A and C (off the stream).
    const sent = await cluster.as("hamlet", 1).post("/messages", { type: "direct", to: [users.iago.id], content: "one" });
    expect(sent.status).toBe(200);
    await cluster.as("cordelia", 0).post("/users/me/presence", { status: "active", slim_presence: true }, { validate: false });
    // A checkpoint rewrites the row here: the rebuild starts from it.
    await a.ctx.cluster!.keeper.checkpoint();
    expect((await cluster.as("iago", 2).post("/messages/flags", { messages: [sent.body.id], op: "add", flag: "starred" })).status).toBe(200);
    await cluster.as("hamlet", 2).post("/typing", { op: "start", to: [users.iago.id] });
    clock.advance(1);
    await cluster.as("othello", 2).post("/users/me/presence", { status: "active", slim_presence: true }, { validate: false });
    await cluster.as("hamlet", 1).post("/messages", { type: "direct", to: [users.iago.id], content: "two" });
    // What A holds past the heartbeat (acknowledged by the next poll).
    const held = a.ctx.queues.get(queueId)!.save().events.slice(1);
    expect(held.map((event) => event.type)).toEqual(["message", "presence", "update_message_flags", "typing", "presence", "message"]);
    expect(held.map((event) => event.id)).toEqual([1, 2, 3, 4, 5, 6]);

    // A dies: it applies no more entries and leaves the members, handing nothing over.
    a.ctx.cluster!.keeper.stop();
    await a.ctx.cluster!.bus.stop();
    await a.ctx.cluster!.members.leave();
    const after = await cluster.as("hamlet", 1).post("/messages", { type: "direct", to: [users.iago.id], content: "three" });
    expect(after.status).toBe(200);

    const rebuilt = await cluster.as("iago", 1).get("/events", { queue_id: queueId, last_event_id: 0, dont_block: true });
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body.events.slice(0, held.length)).toEqual(JSON.parse(JSON.stringify(held)));
    expect(rebuilt.body.events.slice(held.length).map((event: { type: string; id: number; message: { id: number } }) => [event.type, event.id, event.message.id])).toEqual([["message", 7, after.body.id]]);
    expect(apps[1]!.ctx.queues.has(queueId)).toBe(true);
    // Through C the request goes to B, which holds it now; the client acknowledges as it goes.
    const third = await cluster.as("iago", 2).get("/events", { queue_id: queueId, last_event_id: 7, dont_block: true });
    expect(third.status).toBe(200);
    expect(third.body.events).toEqual([]);
    expect(apps[2]!.ctx.queues.has(queueId)).toBe(false);

    // Asked through B and C at once, one process claims and rebuilds it; the other forwards to it.
    const both = await Promise.all([1, 2].map((on) => cluster.as("hamlet", on).get("/events", { queue_id: contestedId, last_event_id: -1, dont_block: true })));
    expect(both.map((res) => res.status)).toEqual([200, 200]);
    expect(both[0]!.body.events.map((event: { id: number }) => event.id)).toEqual([0, 1, 2]);
    expect(both[1]!.body.events).toEqual(both[0]!.body.events);
    expect([1, 2].filter((on) => apps[on]!.ctx.queues.has(contestedId))).toHaveLength(1);

    // The stream no longer has the entries A's other queue was saved at: it cannot be rebuilt.
    await redis.xtrim(`${cluster.prefix}events`, "MAXLEN", 0);
    const gone = await cluster.as("iago", 2).get("/events", { queue_id: lostId, last_event_id: -1, dont_block: true });
    expect([gone.status, gone.body]).toEqual([400, error(`Bad event queue ID: ${lostId}`, "BAD_EVENT_QUEUE_ID", { queue_id: lostId })]);
    expect(await redis.exists(`${cluster.prefix}queue:${lostId}`)).toBe(0);
  });
});
