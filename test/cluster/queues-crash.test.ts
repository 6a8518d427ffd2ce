import { describe, expect, it } from "vitest";
import { openStore } from "../../src/db/index.js";
import { userById } from "../../src/db/queries/users.js";
import { applyEvents } from "../../src/lib/state/apply.js";
import { ownerOf } from "../../src/cluster/queue-routing.js";
import { normalize, stateOptions, strip, withoutId } from "../events/check-action.js";
import { CLUSTER_SKIP_REASON, clusterBackends } from "../harness/cluster.js";
import { processClusterFile } from "../harness/cluster-processes.js";
import { Client, type Json, type ParamValue } from "../harness/client.js";
import { startTcpRelay } from "../harness/tcp-relay.js";

// The cluster's side of test/durability/queues-crash.test.ts: three real processes on PostgreSQL
// and a Redis of this file's own, 200 clients holding queues spread over them, 20 senders. One
// process is killed outright; its clients keep polling (through the others) and get exactly the
// events they had not acknowledged, with the ids they had, never BAD_EVENT_QUEUE_ID; each state
// then equals a fresh /register.
const backends = clusterBackends();
if (!backends) console.log(CLUSTER_SKIP_REASON);

const USERS = 20;
const QUEUES_PER_USER = 10;
const ANSWERED_BEFORE_KILL = 200;
const ANSWERED_AFTER_KILL = 200;
const END = "end-of-the-crash-test";
/**
 * State keys no event keeps up to date: presence (clients poll it through POST /users/me/presence),
 * and what describes the process that answered /register (its address, its generation).
 */
const VOLATILE = ["presences", "presence_last_update_id", "realm_uri", "realm_url", "server_emoji_data_url", "server_generation"];

const clusters = processClusterFile("queues-crash", backends?.pgUrl);

interface Holder {
  client: Client;
  userId: number;
  params: Record<string, ParamValue>;
  queueId: string;
  state: Record<string, unknown>;
  lastEventId: number;
  ids: number[];
  messageIds: number[];
  badQueue: number;
  done: boolean;
}

/** The /register parameters of the n-th queue of a user: all events, or a few types, markdown or not. */
function registration(n: number): Record<string, ParamValue> {
  const capabilities = { notification_settings_null: true, user_settings_object: true };
  if (n % 3 === 0) return { client_capabilities: capabilities };
  if (n % 3 === 1) return { client_capabilities: capabilities, event_types: ["message", "update_message_flags", "typing", "subscription"] };
  return { client_capabilities: { ...capabilities, stream_typing_notifications: true }, apply_markdown: true, client_gravatar: false };
}

/** Retries a call that failed on the network or with a proxy error (a request that reached the killed process). */
async function retried(call: () => Promise<{ status: number; body: Json }>): Promise<{ status: number; body: Json }> {
  for (;;) {
    try {
      const res = await call();
      if (res.status < 500) return res;
    } catch {
      // the process it reached died
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!backends)("event queues of a cluster through kill -9 of one process", () => {
  it("every client keeps polling through the others: exactly the events it had not acknowledged, same ids, no BAD_EVENT_QUEUE_ID; its state then equals a fresh /register", async () => {
    // The process to be killed reaches Redis through a relay the test cuts first: its last commits
    // are in the database but never reach the stream, as when a process dies between the two.
    const redisUrl = new URL(clusters.redis().url);
    const relay = await startTcpRelay(redisUrl.hostname, Number(redisUrl.port));
    const c = await clusters.start(3, (index) => (index === 1 ? `redis://127.0.0.1:${relay.port}` : redisUrl.href));
    const [email, apiKey] = Buffer.from(c.auth.authorization.slice("Basic ".length), "base64").toString().split(":") as [string, string];
    const proxy = c.proxy.url;
    const owner = new Client(proxy, { email, apiKey });

    // Twenty people, all in one channel.
    const people: { credentials: { email: string; apiKey: string }; userId: number }[] = [{ credentials: { email, apiKey }, userId: (await owner.get("/users/me")).body.user_id }];
    const password = "a-long-enough-password";
    for (let i = 1; i < USERS; i++) {
      const address = `crash${i}@example.com`;
      const created = await owner.post("/users", { email: address, password, full_name: `Crash ${i}` });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const key = await new Client(proxy, undefined).post("/fetch_api_key", { username: address, password });
      people.push({ credentials: { email: address, apiKey: key.body.api_key }, userId: created.body.user_id });
    }
    const subscribed = await owner.post("/users/me/subscriptions", { subscriptions: [{ name: "crash" }], principals: people.map((p) => p.userId) });
    expect(subscribed.status).toBe(200);

    // Each queue is registered on one process in turn (so each holds a third), then polled through the proxy.
    const holders: Holder[] = [];
    for (const person of people) {
      for (let n = 0; n < QUEUES_PER_USER; n++) {
        const params = registration(n);
        const res = await new Client(c.members[holders.length % 3]!.url, person.credentials).post("/register", params);
        expect(res.status).toBe(200);
        holders.push({
          client: new Client(proxy, person.credentials),
          userId: person.userId,
          params,
          queueId: res.body.queue_id,
          state: strip(res.body, VOLATILE),
          lastEventId: res.body.last_event_id,
          ids: [],
          messageIds: [],
          badQueue: 0,
          done: false,
        });
      }
    }
    const store = await openStore(`${c.env.ROOKERY_DATABASE_URL}`);
    const userRows = new Map<number, Awaited<ReturnType<typeof userById>>>();
    for (const person of people) userRows.set(person.userId, await userById(store.db, person.userId));
    const apply = (holder: Holder, events: Json[]) => {
      for (const event of events) {
        holder.ids.push(event.id);
        if (event.type === "message") holder.messageIds.push(event.message.id);
      }
      applyEvents(holder.state, events.map(withoutId), userRows.get(holder.userId)!, stateOptions(holder.params));
    };

    // Clients long-poll through the proxy and apply what they get, until the last message.
    const poll = async (holder: Holder) => {
      while (!holder.done) {
        const res = await retried(() => holder.client.get("/events", { queue_id: holder.queueId, last_event_id: holder.lastEventId }));
        if (res.status !== 200) {
          if (res.body?.code === "BAD_EVENT_QUEUE_ID") holder.badQueue++;
          throw new Error(`${holder.queueId}: ${res.status} ${JSON.stringify(res.body)}`);
        }
        const events = res.body.events as Json[];
        expect(events.every((event) => event.id > holder.lastEventId)).toBe(true);
        apply(holder, events);
        if (events.length > 0) holder.lastEventId = events[events.length - 1].id;
        if (events.some((event) => event.type === "message" && String(event.message.content).includes(END))) holder.done = true;
      }
    };
    const polls = holders.map((holder) => poll(holder));

    // Twenty senders through the proxy: channel messages, direct messages, typing, presence, stars.
    const answered = new Map<number, number[] | undefined>();
    const victim = c.members[1]!;
    let killed = false;
    let stop = false;
    const exited = new Promise((resolve) => victim.child.once("exit", resolve));
    const sender = async (n: number) => {
      const client = new Client(proxy, people[n]!.credentials);
      for (let i = 0; !stop; i++) {
        const direct = i % 5 === 4 ? [people[n]!.userId, people[(n + 1) % USERS]!.userId] : undefined;
        const res = await retried(() => client.post("/messages", direct ? { type: "direct", to: [direct[1]], content: `dm ${n}/${i}` } : { type: "stream", to: "crash", topic: `t${n % 4}`, content: `**${n}** ${i}` }));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        answered.set(res.body.id, direct);
        if (i % 4 === 1) await retried(() => client.post("/messages/flags", { messages: [res.body.id], op: "add", flag: "starred" }));
        if (i % 6 === 2) await retried(() => client.post("/typing", { op: "start", to: [people[(n + 2) % USERS]!.userId] }));
        if (i % 8 === 0) await retried(() => client.post("/users/me/presence", { status: i % 16 === 0 ? "active" : "idle" }, { validate: false }));
        if (answered.size >= ANSWERED_BEFORE_KILL && !killed) {
          killed = true;
          relay.cut();
          setTimeout(() => victim.child.kill("SIGKILL"), 300);
        }
        if (killed && answered.size >= ANSWERED_BEFORE_KILL + ANSWERED_AFTER_KILL) stop = true;
      }
    };
    await Promise.all(people.map((_, n) => sender(n)));
    await exited;
    // What the killed process committed but never put on the stream (its sends went unanswered; the
    // senders sent again) is appended for it by another process once its database lock is free
    // (cluster/pending.ts): the end message comes after that, so every client has it before the end.
    for (const deadline = Date.now() + 20_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const left = await store.db.selectFrom("cluster_pending").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      if (Number(left.n) === 0) break;
      expect(Date.now()).toBeLessThan(deadline);
    }
    const last = await retried(() => owner.post("/messages", { type: "stream", to: "crash", topic: "end", content: END }));
    expect(last.status).toBe(200);
    answered.set(last.body.id, undefined);
    await Promise.all(polls);

    let moved = 0;
    for (const holder of holders) {
      expect(holder.badQueue).toBe(0);
      // Ids strictly increasing over the whole life of the queue: none given twice.
      expect(holder.ids.every((id, i) => i === 0 || id > holder.ids[i - 1]!)).toBe(true);
      // Every message whose send was answered reached the client once.
      const seen = new Set(holder.messageIds);
      expect(seen.size).toBe(holder.messageIds.length);
      const mine = [...answered].filter(([, to]) => to === undefined || to.includes(holder.userId)).map(([id]) => id);
      expect(mine.filter((id) => !seen.has(id))).toEqual([]);
      const fresh = await retried(() => holder.client.post("/register", holder.params));
      expect(fresh.status).toBe(200);
      expect(normalize(holder.state)).toEqual(normalize(strip(fresh.body, VOLATILE)));
      await retried(() => holder.client.delete("/events", { queue_id: fresh.body.queue_id }));
      if (ownerOf(holder.queueId) === ownerOf(holders[1]!.queueId)) moved++;
    }
    await store.close();
    const recovered = Number(c.members.map((m) => /"appended":(\d+)/.exec(m.out())?.[1]).find((n) => n !== undefined) ?? 0);
    expect(recovered).toBeGreaterThan(0);
    await relay.close();
    console.info(`${holders.length} queues (${moved} on the killed process), ${answered.size} messages answered, ${recovered} commits of the killed process appended for it`);
  }, 240_000);
});
