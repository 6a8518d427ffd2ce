import { describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { ownerOf } from "../../src/cluster/queue-routing.js";
import { CLUSTER_SKIP_REASON, clusterBackends } from "../harness/cluster.js";
import { processClusterFile, type ProcessCluster } from "../harness/cluster-processes.js";

// Real `rookery serve` processes (three, on one PostgreSQL database and one Redis of this file's
// own, behind a round-robin proxy) that are killed, stopped, and cut off from Redis.
const backends = clusterBackends();
if (!backends) console.log(CLUSTER_SKIP_REASON);

const clusters = processClusterFile("cluster", backends?.pgUrl);

type Body = Record<string, unknown> & { result?: string; code?: string };

/** Calls the API through `base` as the owner; a network failure or a proxy error is `undefined`. */
async function call(c: ProcessCluster, base: string, method: string, path: string, fields: Record<string, string>, timeoutMs = 10_000): Promise<{ status: number; body: Body } | undefined> {
  const query = method === "GET" ? `?${new URLSearchParams(fields)}` : "";
  try {
    const res = await fetch(`${base}/api/v1${path}${query}`, {
      method,
      headers: { ...c.auth, ...(method === "GET" ? {} : { "content-type": "application/x-www-form-urlencoded" }) },
      body: method === "GET" ? undefined : new URLSearchParams(fields).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.status >= 500) return undefined;
    return { status: res.status, body: (await res.json()) as Body };
  } catch {
    return undefined;
  }
}

/** A client of one event queue that long-polls through the proxy and re-registers on BAD_EVENT_QUEUE_ID, as Zulip's apps do. */
class Listener {
  queueId = "";
  lastEventId = -1;
  /** Message ids from the current queue, above `maxMessageId` (what its registration already showed). */
  received: number[] = [];
  maxMessageId = -1;
  badQueue = 0;
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(private readonly c: ProcessCluster) {}

  async register(): Promise<void> {
    for (;;) {
      const res = await call(this.c, this.c.proxy.url, "POST", "/register", { event_types: '["message"]', fetch_event_types: '["message"]' });
      if (res?.status === 200) {
        this.queueId = String(res.body.queue_id);
        this.maxMessageId = Number(res.body.max_message_id);
        this.lastEventId = -1;
        this.received = [];
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        const res = await call(this.c, this.c.proxy.url, "GET", "/events", { queue_id: this.queueId, last_event_id: String(this.lastEventId) }, 2000);
        if (res?.status === 200) {
          for (const event of res.body.events as { id: number; type: string; message?: { id: number } }[]) {
            if (event.type === "message" && event.message && event.message.id > this.maxMessageId) this.received.push(event.message.id);
            this.lastEventId = Math.max(this.lastEventId, event.id);
          }
        } else if (res?.body.code === "BAD_EVENT_QUEUE_ID") {
          this.badQueue++;
          await this.register();
        } else if (res !== undefined) {
          throw new Error(`unexpected answer ${res.status}: ${JSON.stringify(res.body)}`);
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }
}

/** Senders posting to one channel through the proxy until stopped; what was answered with an id, by sender. */
function startSenders(c: ProcessCluster, count: number): { acked: number[][]; stop: () => Promise<void> } {
  const acked: number[][] = Array.from({ length: count }, () => []);
  let stopped = false;
  const loops = acked.map(async (mine, n) => {
    for (let i = 0; !stopped; i++) {
      const res = await call(c, c.proxy.url, "POST", "/messages", { type: "stream", to: "general", topic: `sender ${n}`, content: `message ${i}` });
      if (res?.status === 200) mine.push(Number(res.body.id));
      else if (res === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  return {
    acked,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Waits until `check` holds, polling (at most `ms`). */
async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Which member holds a queue: its id ends with the process id each member lists in Redis. */
async function holderIndex(c: ProcessCluster, redisUrl: string, queueId: string): Promise<number> {
  const r = new Redis(redisUrl);
  try {
    const address = await r.get(`rookery:member:${ownerOf(queueId) ?? ""}`);
    return c.members.findIndex((m) => m.url === address);
  } finally {
    r.disconnect();
  }
}

/** Every acknowledged message above the listener's registration reached it once, each sender's in order. */
function expectComplete(listener: Listener, acked: number[][]): void {
  expect(new Set(listener.received).size).toBe(listener.received.length);
  const got = new Set(listener.received);
  for (const mine of acked) {
    const owed = mine.filter((id) => id > listener.maxMessageId);
    expect(owed.filter((id) => !got.has(id))).toEqual([]);
    const order = listener.received.filter((id) => owed.includes(id));
    expect(order).toEqual(owed);
  }
}

describe.skipIf(!backends)("a cluster of real processes", () => {
  it("loses one process to SIGKILL under load: its clients keep their queues (another process rebuilds them) and never see BAD_EVENT_QUEUE_ID, no answered message is lost, the others keep serving", async () => {
    const c = await clusters.start();
    const listeners = Array.from({ length: 6 }, () => new Listener(c));
    for (const l of listeners) await l.register();
    const holders = await Promise.all(listeners.map((l) => holderIndex(c, clusters.redis().url, l.queueId)));
    expect(new Set(holders).size).toBe(3);
    listeners.forEach((l) => l.start());
    const senders = startSenders(c, 4);
    await until(() => senders.acked.flat().length >= 50);
    const victim = c.members[1]!;
    victim.child.kill("SIGKILL");
    const atKill = senders.acked.flat().length;
    await until(() => senders.acked.flat().length >= atKill + 100, 30_000);
    await senders.stop();
    expect(senders.acked.flat().length).toBeGreaterThanOrEqual(atKill + 100);
    const all = senders.acked.flat();
    // The killed process's queues are rebuilt once it is known dead (about 6 s, 15 s at most).
    await until(() => listeners.every((l) => all.filter((id) => id > l.maxMessageId).every((id) => l.received.includes(id))), 30_000);
    await Promise.all(listeners.map((l) => l.stop()));
    for (const l of listeners) expect(l.badQueue).toBe(0);
    for (const l of listeners) expectComplete(l, senders.acked);
    // Every answered message is in the database.
    const stored = await call(c, c.proxy.url, "GET", "/messages", { anchor: "newest", num_before: "5000", num_after: "0", narrow: '[["channel","general"]]' });
    const ids = new Set((stored?.body.messages as { id: number }[]).map((m) => m.id));
    expect(all.filter((id) => !ids.has(id))).toEqual([]);
  }, 90_000);

  it("hands its queues over when one process stops cleanly (SIGTERM): no client sees BAD_EVENT_QUEUE_ID or misses an event", async () => {
    const c = await clusters.start();
    const listeners = Array.from({ length: 6 }, () => new Listener(c));
    for (const l of listeners) await l.register();
    const holders = await Promise.all(listeners.map((l) => holderIndex(c, clusters.redis().url, l.queueId)));
    expect(holders.filter((h) => h === 2).length).toBeGreaterThan(0);
    listeners.forEach((l) => l.start());
    const senders = startSenders(c, 3);
    await until(() => senders.acked.flat().length >= 30);
    const stopping = c.members[2]!;
    const exited = new Promise<number | null>((resolve) => stopping.child.once("exit", resolve));
    stopping.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    const atStop = senders.acked.flat().length;
    await until(() => senders.acked.flat().length >= atStop + 60, 30_000);
    await senders.stop();
    const all = senders.acked.flat();
    await until(() => listeners.every((l) => all.filter((id) => id > l.maxMessageId).every((id) => l.received.includes(id))));
    await Promise.all(listeners.map((l) => l.stop()));
    expect(listeners.map((l) => l.badQueue)).toEqual([0, 0, 0, 0, 0, 0]);
    for (const l of listeners) expectComplete(l, senders.acked);
  }, 90_000);

  it("recovers from a Redis restart without restarting: queues are dropped once (BAD_EVENT_QUEUE_ID), then everything works again", async () => {
    const c = await clusters.start();
    const listeners = Array.from({ length: 3 }, () => new Listener(c));
    for (const l of listeners) await l.register();
    listeners.forEach((l) => l.start());
    const first = await call(c, c.proxy.url, "POST", "/messages", { type: "stream", to: "general", topic: "before", content: "before" });
    await until(() => listeners.every((l) => l.received.includes(Number(first?.body.id))));
    await clusters.redis().restart();
    // Every process notices on its own, drops its queues, and its clients register again.
    await until(() => listeners.every((l) => l.badQueue === 1), 30_000);
    expect(listeners.map((l) => l.badQueue)).toEqual([1, 1, 1]);
    const senders = startSenders(c, 2);
    await until(() => senders.acked.flat().length >= 30, 30_000);
    await senders.stop();
    const all = senders.acked.flat();
    await until(() => listeners.every((l) => all.filter((id) => id > l.maxMessageId).every((id) => l.received.includes(id))));
    await Promise.all(listeners.map((l) => l.stop()));
    for (const l of listeners) expectComplete(l, senders.acked);
    for (const m of c.members) expect(m.child.exitCode).toBe(null);
    expect(c.members[0]!.out()).toContain("missed cluster events");
  }, 90_000);
});
