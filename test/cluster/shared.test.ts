import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { migrations } from "../../src/db/migrations/index.js";
import { openStore } from "../../src/db/index.js";
import { CLUSTER_SKIP_REASON, clusterBackends, startCluster, type TestCluster } from "../harness/cluster.js";
import { freshPostgres } from "../harness/postgres.js";

// What the processes of a cluster share besides events: limits, timed work, migrations.
const backends = clusterBackends();
if (!backends) console.log(CLUSTER_SKIP_REASON);

describe("the cluster-mode setting", () => {
  it("is off without ROOKERY_REDIS_URL", () => {
    expect(loadConfig({}).redisUrl).toBe(null);
  });

  it("needs a PostgreSQL database: SQLite refuses it with one line", () => {
    expect(() => loadConfig({ ROOKERY_REDIS_URL: "redis://127.0.0.1:6379" })).toThrow(
      new ConfigError("ROOKERY_REDIS_URL (cluster mode) needs a postgres:// ROOKERY_DATABASE_URL; SQLite serves one process only"),
    );
    expect(loadConfig({ ROOKERY_REDIS_URL: "redis://127.0.0.1:6379", ROOKERY_DATABASE_URL: "postgres://db/rookery" }).redisUrl).toBe("redis://127.0.0.1:6379");
  });

  it("refuses a Redis URL of another scheme", () => {
    expect(() => loadConfig({ ROOKERY_REDIS_URL: "http://x", ROOKERY_DATABASE_URL: "postgres://db/rookery" })).toThrow(ConfigError);
  });
});

let cluster: TestCluster;
beforeAll(async () => {
  if (backends) cluster = await startCluster(3, { rateLimitPerMinute: 4 });
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

describe.skipIf(!backends)("shared limits and jobs", () => {
  it("counts a user's API calls across every process", async () => {
    const remaining: string[] = [];
    for (const on of [0, 1, 2, 0]) {
      const res = await cluster.as("cordelia", on).get("/users/me");
      expect(res.status).toBe(200);
      remaining.push(String(res.headers.get("x-ratelimit-remaining")));
    }
    expect(remaining).toEqual(["3", "2", "1", "0"]);
    const refused = await cluster.as("cordelia", 1).get("/users/me");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": 60 });
    // A minute later there is room again, wherever the call lands.
    cluster.clock.advance(61);
    expect((await cluster.as("cordelia", 2).get("/users/me")).status).toBe(200);
  });

  it("counts password attempts across every process", async () => {
    const statuses: number[] = [];
    for (const on of [0, 1, 2, 0, 1]) {
      const res = await fetch(`${cluster.urls[on]}/api/v1/fetch_api_key`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "username=othello%40zulip.com&password=wrong" });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const sixth = await fetch(`${cluster.urls[2]}/api/v1/fetch_api_key`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `username=othello%40zulip.com&password=${cluster.password}` });
    expect(sixth.status).toBe(429);
    expect(await sixth.json()).toEqual({ result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": 1800 });
  });

  it("sends a scheduled message once, whichever processes look for due messages", async () => {
    const holders = cluster.apps.filter((app) => app.ctx.cluster?.jobs.held);
    expect(holders.length).toBe(1);
    cluster.clock.advance(61);
    const when = Math.floor(cluster.clock.now() / 1000) + 60;
    const scheduled = await cluster.as("hamlet", 0).post("/scheduled_messages", { type: "direct", to: JSON.stringify([cluster.users.iago.id]), content: "only once", scheduled_delivery_timestamp: when });
    expect(scheduled.status).toBe(200);
    cluster.clock.advance(120);
    await Promise.all(cluster.apps.map((app) => app.ctx.scheduledMessages.runDue()));
    await Promise.all(cluster.apps.map((app) => app.ctx.scheduledMessages.runDue()));
    const narrow = JSON.stringify([{ operator: "dm", operand: [cluster.users.hamlet.id] }]);
    const res = await cluster.as("iago", 1).get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow });
    expect((res.body.messages as { content: string }[]).filter((m) => m.content === "<p>only once</p>").length).toBe(1);
  });

  it("runs the migrations once when three processes open a fresh database together", async () => {
    const { url, drop } = await freshPostgres(backends!.pgUrl);
    try {
      const stores = await Promise.all([openStore(url), openStore(url), openStore(url)]);
      await Promise.all(stores.map((store) => store.close()));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ name: string }>("select name from kysely_migration order by name");
      await client.end();
      expect(rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
    } finally {
      await drop();
    }
  });
});
