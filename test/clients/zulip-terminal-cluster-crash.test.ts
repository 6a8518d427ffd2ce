/**
 * The real zulip-terminal, unpatched, through kill -9 of the cluster process that holds its event
 * queue. Three real processes on PostgreSQL and Redis behind the round-robin proxy; the terminal
 * talks to the proxy. Straight after a message is sent, the process holding the terminal's queue
 * is killed; the terminal's next polls reach the other processes, one of which rebuilds the queue.
 * It must show the message sent before the kill exactly once and one sent after, never register
 * again (its queue id is the only one, before and after) and log no traceback. Needs what
 * zulip-terminal-run.test.ts needs, and PostgreSQL and Redis as the cluster tests do.
 */
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { ownerOf } from "../../src/cluster/queue-routing.js";
import { clusterBackends } from "../harness/cluster.js";
import { processClusterFile } from "../harness/cluster-processes.js";
import { Client } from "../harness/client.js";
import { clientsDir } from "./real-clients.js";
import { startTerminal, terminalRunnable } from "./terminal.js";
import { tmuxSession } from "./tmux.js";

const backends = clusterBackends();
const runnable = terminalRunnable && backends !== undefined;
if (!runnable) console.log(`zulip-terminal cluster crash run skipped: needs zulip-terminal and python-zulip-api in ${clientsDir}, a Python 3 with their modules, tmux, and ROOKERY_TEST_PG_URL and ROOKERY_TEST_REDIS_URL`);

const clusters = processClusterFile("zt-cluster-crash", runnable ? backends?.pgUrl : undefined);
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const { tmux, screen, waitFor, kill } = tmuxSession(`rookery-ztcc-${process.pid}`, "ztcc");

/** The ids of the event queues whose rows the cluster keeps in Redis. */
async function queueIds(redis: Redis): Promise<string[]> {
  return (await redis.keys("rookery:queue:*")).map((key) => key.slice("rookery:queue:".length)).sort();
}

describe.skipIf(!runnable)("zulip-terminal through kill -9 of the cluster process holding its queue", () => {
  it("keeps polling its queue through the others, and shows the message sent just before the kill once and one sent after", async () => {
    const c = await clusters.start(3);
    const redis = new Redis(clusters.redis().url);
    cleanups.push(() => redis.disconnect());
    const [email, apiKey] = Buffer.from(c.auth.authorization.slice("Basic ".length), "base64").toString().split(":") as [string, string];
    const url = c.proxy.url;
    const owner = new Client(url, { email, apiKey });
    const send = async (content: string) => {
      // A send that reached the killed process fails on the network or as a proxy error: sent again.
      for (;;) {
        const res = await owner.post("/messages", { type: "stream", to: "harbour", topic: "tides", content }).catch(() => undefined);
        if (res && res.status < 500) {
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const created = await owner.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "harbour" }]) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await owner.post("/mark_all_as_read")).status).toBe(200);
    await send("low tide at noon");

    const home = startTerminal(tmux, "ztcc", { email, apiKey, site: url });
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true, maxRetries: 5 }));
    cleanups.push(kill);
    await waitFor(["low tide at noon"]);
    await send("high tide at six");
    await waitFor(["high tide at six"]);
    const before = await queueIds(redis);
    expect(before).toHaveLength(1);

    // The process that holds the queue, by the address it is listed at.
    const holder = await redis.get(`rookery:member:${ownerOf(before[0]!)}`);
    const victim = c.members.find((m) => holder !== null && new URL(m.url).port === new URL(holder).port);
    expect(victim, `holder ${holder}`).toBeDefined();
    await send("the harbour is closed");
    victim!.child.kill("SIGKILL");
    await new Promise((resolve) => victim!.child.once("exit", resolve));
    await waitFor(["the harbour is closed"], 60);
    await send("the harbour is open again");
    const shown = await waitFor(["the harbour is open again"], 60);

    expect(shown.split("the harbour is closed").length - 1).toBe(1);
    expect(shown.split("high tide at six").length - 1).toBe(1);
    // The same single queue: the terminal never registered again.
    expect(await queueIds(redis)).toEqual(before);
    expect(screen()).not.toContain("exited");
    expect(fs.existsSync(path.join(home, "zulip-terminal-tracebacks.log"))).toBe(false);
  }, 180_000);
});
