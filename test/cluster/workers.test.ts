import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownerOf } from "../../src/cluster/queue-routing.js";
import { CLUSTER_SKIP_REASON, clusterBackends, dropKeys } from "../harness/cluster.js";
import { freshPostgres } from "../harness/postgres.js";
import { buildMain } from "../harness/cluster-processes.js";
import { freePort } from "../harness/process.js";

// `rookery serve --workers N`: N processes of one cluster sharing one port.
const backends = clusterBackends();
if (!backends) console.log(CLUSTER_SKIP_REASON);

let build: { main: string; remove: () => void };
beforeAll(async () => {
  if (backends) build = await buildMain("workers");
}, 120_000);
afterAll(() => build?.remove());

describe("rookery serve --workers", () => {
  it.skipIf(!backends)("refuses to run several workers without cluster mode", async () => {
    const child = spawn("node", [build.main, "serve", "--workers", "2"], { env: { ...process.env, ROOKERY_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "rookery-workers-")) } });
    let out = "";
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(out).toBe("rookery: --workers needs cluster mode: set ROOKERY_REDIS_URL and a postgres:// ROOKERY_DATABASE_URL\n");
  }, 30_000);

  it.skipIf(!backends)("serves from three workers on one port, any of them answering any queue, and stops cleanly", async () => {
    const { url: databaseUrl, drop } = await freshPostgres(backends!.pgUrl);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-workers-"));
    const prefix = `rookery-workers-${process.pid}:`;
    const port = await freePort();
    const child = spawn("node", [build.main, "serve", "--workers", "3"], {
      env: { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_DATABASE_URL: databaseUrl, ROOKERY_REDIS_URL: backends!.redisUrl, ROOKERY_REDIS_PREFIX: prefix, ROOKERY_PORT: String(port), ROOKERY_LOG_LEVEL: "warn" },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    try {
      while (!out.includes("with 3 workers")) {
        if (child.exitCode !== null) throw new Error(out);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(out.match(/Created the organisation/g)?.length).toBe(1);
      const key = /key=([A-Za-z0-9]{32})/.exec(out)?.[1];
      const headers = { authorization: "Basic " + Buffer.from(`owner@rookery.local:${key}`).toString("base64"), "content-type": "application/x-www-form-urlencoded" };
      const base = `http://127.0.0.1:${port}/api/v1`;
      const redis = new Redis(backends!.redisUrl);
      expect((await redis.keys(`${prefix}member:*`)).length).toBe(3);
      redis.disconnect();
      const queues: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${base}/register`, { method: "POST", headers, body: "event_types=%5B%22message%22%5D" });
        queues.push(((await res.json()) as { queue_id: string }).queue_id);
      }
      expect(new Set(queues.map((q) => ownerOf(q))).size).toBeGreaterThan(1);
      const sent = (await (await fetch(`${base}/messages`, { method: "POST", headers, body: "type=stream&to=general&topic=t&content=hi" })).json()) as { id: number };
      for (const queueId of queues) {
        // A new connection each time: each may reach a different worker.
        const res = await fetch(`${base}/events?queue_id=${encodeURIComponent(queueId)}&last_event_id=-1&dont_block=true`, { headers: { ...headers, connection: "close" } });
        const body = (await res.json()) as { events: { message?: { id: number } }[] };
        expect(body.events.map((e) => e.message?.id)).toEqual([sent.id]);
      }
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await dropKeys(backends!.redisUrl, prefix);
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
