import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLUSTER_SKIP_REASON, clusterBackends, startCluster, type TestCluster } from "../harness/cluster.js";

// A process of a cluster records each commit in its transaction and deletes the row once the
// commit is on the shared stream (cluster/pending.ts). Rows left by a process killed between its
// commit and the append are appended by another process as soon as the dead one's PostgreSQL
// lock is free; never twice, never for a process still alive.
const backends = clusterBackends();
if (!backends) console.log(CLUSTER_SKIP_REASON);

let cluster: TestCluster;
let redis: Redis;
let db: pg.Client;
beforeAll(async () => {
  if (!backends) return;
  cluster = await startCluster(2);
  redis = new Redis(backends.redisUrl);
  db = new pg.Client({ connectionString: cluster.databaseUrl });
  db.on("error", () => undefined);
  await db.connect();
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await db?.end();
  await cluster?.stop();
});

/** Rows of `processId` in the table (all processes' when undefined). */
async function rows(processId?: string): Promise<number[]> {
  const result = processId === undefined ? await db.query("select seq from cluster_pending order by seq") : await db.query("select seq from cluster_pending where process_id = $1 order by seq", [processId]);
  return result.rows.map((row: { seq: string }) => Number(row.seq));
}

/** A commit of `processId`, as a process that died before appending it left it, written `age` ms ago. */
async function leftBehind(processId: string, seq: number, words: string[], userId: number, age = 5_000): Promise<void> {
  const commit = { events: [{ event: { type: "alert_words", alert_words: words }, userIds: [userId] }], changes: [] };
  await db.query("insert into cluster_pending (process_id, seq, created, commit_text) values ($1, $2, $3, $4)", [processId, seq, Date.now() - age, JSON.stringify(commit)]);
}

async function sweepAll(): Promise<void> {
  for (const app of cluster.apps) await app.ctx.cluster!.pending.sweep();
}

describe.skipIf(!backends)("commits on their way to the cluster's stream", () => {
  it("are recorded in their transaction and deleted once on the stream", async () => {
    const reg = await cluster.as("iago", 1).post("/register", { event_types: ["alert_words"] });
    await sweepAll();
    const own = cluster.apps[0]!.ctx.cluster!.processId;
    const marks = `${cluster.prefix}appended:${own}`;
    // Held, A applies no entry, so the write waits for it (its answer comes once every process has
    // the commit): the commit is on the stream, marked, and its row still there.
    const release = cluster.apps[0]!.ctx.cluster!.bus.hold();
    const sending = cluster.as("iago", 0).post("/users/me/alert_words", { alert_words: ["kestrel"] });
    while ((await redis.hlen(marks)) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await rows(own)).toHaveLength(1);
    release();
    expect((await sending).status).toBe(200);
    await sweepAll();
    expect(await rows(own)).toEqual([]);
    expect(await redis.hlen(marks)).toBe(0);
    const polled = await cluster.as("iago", 1).get("/events", { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
    expect(polled.body.events).toEqual([{ type: "alert_words", alert_words: ["kestrel"], id: 0 }]);
  });

  it("a failed transaction records nothing", async () => {
    const before = await rows();
    const refused = await cluster.as("iago", 0).post("/users/me/alert_words", { alert_words: ["x".repeat(101)] });
    expect(refused.status).toBe(400);
    expect(await rows()).toEqual(before);
  });

  it("whose append failed (Redis refused it) are appended from their rows by the next sweep", async () => {
    const reg = await cluster.as("othello", 1).post("/register", { event_types: ["alert_words"] });
    const bus = cluster.apps[0]!.ctx.cluster!.bus;
    const append = bus.publishOnce.bind(bus);
    let refusals = 1;
    bus.publishOnce = (...args) => (refusals-- > 0 ? Promise.resolve("failed" as const) : append(...args));
    try {
      expect((await cluster.as("othello", 0).post("/users/me/alert_words", { alert_words: ["osprey"] })).status).toBe(200);
      const own = cluster.apps[0]!.ctx.cluster!.processId;
      await sweepAll();
      await bus.reached((await redis.xrevrange(`${cluster.prefix}events`, "+", "-", "COUNT", 1))[0]![0], 2_000);
      await cluster.apps[1]!.ctx.cluster!.bus.reached(bus.lastId, 2_000);
      const polled = await cluster.as("othello", 1).get("/events", { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
      expect(polled.body.events).toEqual([{ type: "alert_words", alert_words: ["osprey"], id: 0 }]);
      await sweepAll();
      expect(await rows(own)).toEqual([]);
    } finally {
      bus.publishOnce = append;
    }
  });

  it("left by a dead process are appended for it by another, once, in order; those of a live process are left to it", async () => {
    const { users } = cluster;
    const reg = await cluster.as("hamlet", 0).post("/register", { event_types: ["alert_words"] });
    const queueId: string = reg.body.queue_id;
    const poll = async () => (await cluster.as("hamlet", 1).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events.map((event: { alert_words: string[] }) => event.alert_words[0]);

    // A dead process (nobody holds its lock) left two commits; one of them it had appended already.
    await redis.hset(`${cluster.prefix}appended:0000000dead1`, "2", "1");
    await leftBehind("0000000dead1", 1, ["first"], users.hamlet.id);
    await leftBehind("0000000dead1", 2, ["already"], users.hamlet.id);
    await leftBehind("0000000dead1", 3, ["third"], users.hamlet.id);
    // A live process (its lock held, here by the test) left one; and a dead process's row too new to judge.
    const alive = new pg.Client({ connectionString: cluster.databaseUrl });
    alive.on("error", () => undefined);
    await alive.connect();
    await alive.query("select pg_advisory_lock(hashtextextended($1, 0))", ["rookery-00000000a11e"]);
    await leftBehind("00000000a11e", 1, ["alive"], users.hamlet.id);
    await leftBehind("0000000dead2", 1, ["fresh"], users.hamlet.id, 0);

    await Promise.all(cluster.apps.map((app) => app.ctx.cluster!.pending.sweep()));
    await cluster.apps[0]!.ctx.cluster!.bus.reached(await redis.xrevrange(`${cluster.prefix}events`, "+", "-", "COUNT", 1).then((r) => r[0]![0]), 2_000);
    expect(await poll()).toEqual(["first", "third"]);
    expect(await rows("0000000dead1")).toEqual([]);
    expect(await rows("00000000a11e")).toEqual([1]);
    expect(await rows("0000000dead2")).toEqual([1]);
    expect(await redis.ttl(`${cluster.prefix}appended:0000000dead1`)).toBeGreaterThan(0);

    // Swept again: nothing appended twice. The live one dies (its connection drops): its row goes out.
    await sweepAll();
    await alive.end();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await sweepAll();
    const last = (await redis.xrevrange(`${cluster.prefix}events`, "+", "-", "COUNT", 1))[0]![0];
    await cluster.apps[0]!.ctx.cluster!.bus.reached(last, 2_000);
    const words = await poll();
    expect(words.slice(0, 2)).toEqual(["first", "third"]);
    expect(words.slice(2).sort()).toEqual(["alive", "fresh"]);
    expect(await rows()).toEqual([]);
  });

  it("left by a process whose lock outlived it (gone from the members, rows older than a member's time to live): its connection is ended and the rows appended", async () => {
    const { users } = cluster;
    const reg = await cluster.as("cordelia", 0).post("/register", { event_types: ["alert_words"] });
    // A connection named as a process's lock connection, holding that lock, while the process is no member.
    const stuck = new pg.Client({ connectionString: cluster.databaseUrl, application_name: "rookery-00000000057c" });
    stuck.on("error", () => undefined);
    await stuck.connect();
    await stuck.query("select pg_advisory_lock(hashtextextended($1, 0))", ["rookery-00000000057c"]);
    const ended = new Promise((resolve) => stuck.once("end", resolve));
    await leftBehind("00000000057c", 1, ["stuck"], users.cordelia.id, 20_000);
    // Younger than a member's time to live, the same case is left alone: it may be a live process.
    await leftBehind("00000000057d", 1, ["young"], users.cordelia.id, 5_000);
    const young = new pg.Client({ connectionString: cluster.databaseUrl, application_name: "rookery-00000000057d" });
    young.on("error", () => undefined);
    await young.connect();
    await young.query("select pg_advisory_lock(hashtextextended($1, 0))", ["rookery-00000000057d"]);
    try {
      await sweepAll();
      await ended;
      await cluster.apps[1]!.ctx.cluster!.bus.reached((await redis.xrevrange(`${cluster.prefix}events`, "+", "-", "COUNT", 1))[0]![0], 2_000);
      await cluster.apps[0]!.ctx.cluster!.bus.reached(cluster.apps[1]!.ctx.cluster!.bus.lastId, 2_000);
      const polled = await cluster.as("cordelia", 0).get("/events", { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
      expect(polled.body.events.map((event: { alert_words: string[] }) => event.alert_words[0])).toEqual(["stuck"]);
      expect(await rows("00000000057c")).toEqual([]);
      expect(await rows("00000000057d")).toEqual([1]);
    } finally {
      await young.end();
    }
  });
});
