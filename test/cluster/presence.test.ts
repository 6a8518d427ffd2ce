import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLUSTER_SKIP_REASON, clusterBackends, startCluster, type TestCluster } from "../harness/cluster.js";

// Two processes on one PostgreSQL database and one Redis: presence lives in Redis, and neither a
// ping nor its event is an entry of the shared stream every process reads.
const backends = clusterBackends();
if (!backends) console.log(CLUSTER_SKIP_REASON);

let cluster: TestCluster;
let redis: Redis;
beforeAll(async () => {
  if (!backends) return;
  cluster = await startCluster(2);
  redis = new Redis(backends.redisUrl);
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

/** The shared stream's entries (id and text). */
async function streamEntries(): Promise<[string, string][]> {
  const rows = await redis.xrange(`${cluster.prefix}events`, "-", "+");
  return rows.map(([id, fields]) => [id, fields.join(" ")]);
}

describe.skipIf(!backends)("presence in a cluster", () => {
  it("a ping through A shows in B's GET /realm/presence, /register and queue, and writes nothing to the shared stream", async () => {
    const { users, clock } = cluster;
    const reg = await cluster.as("othello", 1).post("/register", { event_types: ["presence"], fetch_event_types: ["presence"], slim_presence: true });
    expect(reg.status).toBe(200);
    expect(reg.body.presences).toEqual({});
    const before = await streamEntries();

    const t = Math.floor(clock.now() / 1000);
    const ping = await cluster.as("iago", 0).post("/users/me/presence", { status: "active", slim_presence: true, last_update_id: -1 });
    expect(ping.status).toBe(200);
    expect(ping.body.presences).toEqual({ [String(users.iago.id)]: { active_timestamp: t, idle_timestamp: t } });
    const id: number = ping.body.presence_last_update_id;
    expect(id).toBeGreaterThan(0);

    // The event is in B's queue when A answers.
    const polled = await cluster.as("othello", 1).get("/events", { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
    expect(polled.body.events).toEqual([
      {
        type: "presence",
        user_id: users.iago.id,
        email: users.iago.email,
        server_timestamp: clock.now() / 1000,
        presence: { website: { client: "website", status: "active", timestamp: t, pushable: false } },
        id: 0,
      },
    ]);
    const realm = await cluster.as("othello", 1).get("/realm/presence");
    expect(realm.body).toEqual({
      result: "success",
      msg: "",
      presences: { [users.iago.email]: { aggregated: { client: "website", status: "active", timestamp: t }, website: { client: "website", status: "active", timestamp: t, pushable: false } } },
      server_timestamp: clock.now() / 1000,
    });
    const fresh = await cluster.as("othello", 1).post("/register", { fetch_event_types: ["presence"], slim_presence: true });
    expect(fresh.body.presences).toEqual({ [String(users.iago.id)]: { active_timestamp: t, idle_timestamp: t } });
    expect(fresh.body.presence_last_update_id).toBe(id);
    expect((await cluster.as("othello", 1).get(`/users/${users.iago.id}/presence`)).body.presence.website).toEqual({ status: "active", timestamp: t });

    // Redis holds it; the stream got nothing.
    expect(await redis.hget(`${cluster.prefix}presence:${users.iago.realm_id}`, String(users.iago.id))).toBe(`${clock.now()},${clock.now()},${id}`);
    expect(await streamEntries()).toEqual(before);
    await cluster.as("othello", 1).delete("/events", { queue_id: reg.body.queue_id });
  });

  it("answers changes since an id from either process, in the order Redis gave the ids, and pings that change nothing go nowhere", async () => {
    const { users, clock } = cluster;
    const start = await cluster.as("hamlet", 1).post("/users/me/presence", { status: "idle", slim_presence: true, last_update_id: -1 });
    const since: number = start.body.presence_last_update_id;
    const before = await streamEntries();
    clock.advance(60);
    const t = Math.floor(clock.now() / 1000);
    await cluster.as("cordelia", 0).post("/users/me/presence", { status: "active", ping_only: true });
    await cluster.as("iago", 1).post("/users/me/presence", { status: "active", ping_only: true });
    const idle = Math.floor(start.body.presences[String(users.hamlet.id)].idle_timestamp);
    // Hamlet's own ping (a minute later) moves his connection: the third change since.
    for (const on of [0, 1]) {
      const res = await cluster.as("hamlet", on).post("/users/me/presence", { status: "idle", slim_presence: true, last_update_id: since });
      expect(res.status).toBe(200);
      expect(res.body.presences).toEqual({
        [String(users.cordelia.id)]: { active_timestamp: t, idle_timestamp: t },
        [String(users.iago.id)]: { active_timestamp: t, idle_timestamp: t },
        [String(users.hamlet.id)]: { active_timestamp: Math.floor(users.hamlet.date_joined / 1000), idle_timestamp: t },
      });
      expect(res.body.presence_last_update_id).toBe(since + 3);
    }
    expect(idle).toBe(t - 60);
    // Within 55 s nothing moves: the same answer from either process, and no new id.
    clock.advance(10);
    for (const on of [0, 1]) {
      const res = await cluster.as("hamlet", on).post("/users/me/presence", { status: "idle", slim_presence: true, last_update_id: since + 3 });
      expect(res.body).toMatchObject({ presences: {}, presence_last_update_id: since + 3 });
    }
    expect(await redis.get(`${cluster.prefix}presence-id:${users.hamlet.realm_id}`)).toBe(String(since + 3));
    expect(await streamEntries()).toEqual(before);
  });

  it("loads presence written to the database before Redis had the realm (Redis restarted empty)", async () => {
    const { users } = cluster;
    const seen = await cluster.as("hamlet", 0).post("/users/me/presence", { status: "active", slim_presence: true, last_update_id: -1 });
    expect(Object.keys(seen.body.presences)).toContain(String(users.iago.id));
    // Every process writes its changes behind into the database; then Redis loses the realm.
    await Promise.all(cluster.apps.map((app) => app.ctx.presence.flush()));
    const realm = users.hamlet.realm_id;
    await redis.del(`${cluster.prefix}presence:${realm}`, `${cluster.prefix}presence-log:${realm}`, `${cluster.prefix}presence-seeded:${realm}`, `${cluster.prefix}presence-id:${realm}`);
    cluster.clock.advance(120);
    const after = await cluster.as("desdemona", 1).post("/users/me/presence", { status: "active", slim_presence: true, last_update_id: -1 });
    expect(after.status).toBe(200);
    expect(Object.keys(after.body.presences).sort()).toEqual(Object.keys(seen.body.presences).concat(String(users.desdemona.id)).sort());
    expect(after.body.presence_last_update_id).toBeGreaterThan(seen.body.presence_last_update_id);
  });
});
