import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../src/db/index.js";
import { userById } from "../../src/db/queries/users.js";
import { applyEvents } from "../../src/lib/state/apply.js";
import { normalize, stateOptions, strip, withoutId } from "../events/check-action.js";
import { Client, type Json, type ParamValue } from "../harness/client.js";
import { freePort, launchFromSource } from "../harness/process.js";
import { freshDatabase, testBackend } from "../harness/server.js";

// kill -9 while 200 clients hold queues and 20 senders write: after the restart, every client's
// next poll answers exactly the events it had not seen, and its state with them equals a fresh
// /register. (In a cluster, test/cluster covers a killed member.)

const USERS = 20;
const QUEUES_PER_USER = 10;
const ANSWERED_BEFORE_KILL = 300;
/**
 * State keys no event keeps up to date: presence (clients poll it through POST /users/me/presence)
 * and the server's generation (the restart notice carries the new one; it is checked below).
 */
const VOLATILE = ["presences", "presence_last_update_id", "server_generation"];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Holder {
  client: Client;
  userId: number;
  params: Record<string, ParamValue>;
  queueId: string;
  state: Record<string, unknown>;
  lastEventId: number;
  ids: number[];
  messageIds: number[];
  acceptsMessages: boolean;
}

/** The /register parameters of the n-th queue of a user: all events, or a few types, markdown or not. */
function registration(n: number): Record<string, ParamValue> {
  const capabilities = { notification_settings_null: true, user_settings_object: true };
  if (n % 3 === 0) return { client_capabilities: capabilities };
  if (n % 3 === 1) return { client_capabilities: capabilities, event_types: ["message", "update_message_flags", "typing", "subscription"] };
  return { client_capabilities: { ...capabilities, stream_typing_notifications: true }, apply_markdown: true, client_gravatar: false };
}

describe(`event queues through kill -9 (${testBackend()})`, () => {
  it("every client's next poll returns exactly what it missed, and its state then equals a fresh /register", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-queues-crash-"));
    const { url: databaseUrl, drop } = await freshDatabase(dataDir);
    cleanups.push(async () => {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const port = await freePort();
    const env = { ROOKERY_DATABASE_URL: databaseUrl };
    const launch = async () => {
      const launched = await launchFromSource(dataDir, port, env);
      cleanups.push(() => {
        if (launched.child.exitCode === null) launched.child.kill("SIGKILL");
      });
      return launched;
    };
    const first = await launch();
    const url = `http://127.0.0.1:${port}`;
    const email = /Email: +(\S+)/.exec(first.output)?.[1];
    const apiKey = /API key: +(\S+)/.exec(first.output)?.[1];
    if (!email || !apiKey) throw new Error(`no credentials in: ${first.output}`);
    const owner = new Client(url, { email, apiKey });

    // Twenty people, all in one channel.
    const people: { client: Client; userId: number }[] = [{ client: owner, userId: (await owner.get("/users/me")).body.user_id }];
    const password = "a-long-enough-password";
    for (let i = 1; i < USERS; i++) {
      const address = `crash${i}@example.com`;
      const created = await owner.post("/users", { email: address, password, full_name: `Crash ${i}` });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const key = await new Client(url, undefined).post("/fetch_api_key", { username: address, password });
      people.push({ client: new Client(url, { email: address, apiKey: key.body.api_key }), userId: created.body.user_id });
    }
    const subscribed = await owner.post("/users/me/subscriptions", { subscriptions: [{ name: "crash" }], principals: people.map((p) => p.userId) });
    expect(subscribed.status).toBe(200);

    const holders: Holder[] = [];
    for (const person of people) {
      for (let n = 0; n < QUEUES_PER_USER; n++) {
        const params = registration(n);
        const res = await person.client.post("/register", params);
        expect(res.status).toBe(200);
        const types = params.event_types as string[] | undefined;
        holders.push({
          ...person,
          params,
          queueId: res.body.queue_id,
          state: strip(res.body, VOLATILE),
          lastEventId: res.body.last_event_id,
          ids: [],
          messageIds: [],
          acceptsMessages: types === undefined || types.includes("message"),
        });
      }
    }
    // Clients long-poll and apply what they get until the server dies.
    const userRows = new Map<number, Awaited<ReturnType<typeof userById>>>();
    const pending: { holder: Holder; events: Json[] }[] = [];
    const poll = async (holder: Holder) => {
      for (;;) {
        let res;
        try {
          res = await holder.client.get("/events", { queue_id: holder.queueId, last_event_id: holder.lastEventId });
        } catch {
          return; // the server is gone
        }
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const events = res.body.events as Json[];
        pending.push({ holder, events });
        if (events.length > 0) holder.lastEventId = events[events.length - 1].id;
      }
    };
    const polls = holders.map((holder) => poll(holder));

    // Twenty senders: channel messages, direct messages, typing, presence, and stars on what they sent.
    // Each answered message, with who receives it (undefined: everyone, in the channel).
    const answered = new Map<number, number[] | undefined>();
    let killed = false;
    const sender = async (n: number) => {
      const { client } = people[n]!;
      for (let i = 0; !killed; i++) {
        try {
          const direct = i % 5 === 4 ? [people[n]!.userId, people[(n + 1) % USERS]!.userId] : undefined;
          const res = await client.post("/messages", direct ? { type: "direct", to: [direct[1]], content: `dm ${n}/${i}` } : { type: "stream", to: "crash", topic: `t${n % 4}`, content: `**${n}** ${i}` });
          if (res.status === 200) answered.set(res.body.id, direct);
          if (i % 4 === 1) await client.post("/messages/flags", { messages: [res.body.id], op: "add", flag: "starred" });
          if (i % 6 === 2) await client.post("/typing", { op: "start", to: [people[(n + 2) % USERS]!.userId] });
          if (i % 8 === 0) await client.post("/users/me/presence", { status: i % 16 === 0 ? "active" : "idle" }, { validate: false });
        } catch {
          return;
        }
        if (answered.size >= ANSWERED_BEFORE_KILL && !killed) {
          killed = true;
          first.child.kill("SIGKILL");
        }
      }
    };
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    await Promise.all(people.map((_, n) => sender(n)));
    await exited;
    await Promise.all(polls);

    // What each client had before the crash is kept in the state it will compare.
    const store = await openStore(databaseUrl);
    cleanups.push(() => store.close());
    for (const person of people) userRows.set(person.userId, await userById(store.db, person.userId));
    const apply = (holder: Holder, events: Json[]) => {
      for (const event of events) {
        holder.ids.push(event.id);
        if (event.type === "message") holder.messageIds.push(event.message.id);
      }
      const user = userRows.get(holder.userId);
      if (!user) throw new Error(`no user ${holder.userId}`);
      applyEvents(holder.state, events.map(withoutId), user, stateOptions(holder.params));
    };
    for (const { holder, events } of pending) apply(holder, events);

    await launch();
    let registers = 0;
    let missed = 0;
    for (const holder of holders) {
      const res = await holder.client.get("/events", { queue_id: holder.queueId, last_event_id: holder.lastEventId, dont_block: true });
      expect(res.status, `${holder.queueId}: ${JSON.stringify(res.body)}`).toBe(200);
      const events = res.body.events as Json[];
      expect(events.every((event) => event.id > holder.lastEventId)).toBe(true);
      apply(holder, events);
      missed += events.filter((event) => event.type !== "restart").length;
      // Ids strictly increasing over the whole life of the queue: none given twice.
      expect(holder.ids.every((id, i) => i === 0 || id > holder.ids[i - 1]!)).toBe(true);
      // Every message whose send was answered reached the client once.
      const seen = new Set(holder.messageIds);
      expect(seen.size).toBe(holder.messageIds.length);
      const mine = [...answered].filter(([, to]) => to === undefined || to.includes(holder.userId)).map(([id]) => id);
      if (holder.acceptsMessages) expect(mine.filter((id) => !seen.has(id))).toEqual([]);
      // Queues that take every type are told of the restart, once.
      expect(events.filter((event) => event.type === "restart")).toHaveLength(holder.params.event_types === undefined ? 1 : 0);

      const fresh = await holder.client.post("/register", holder.params);
      registers++;
      expect(fresh.status).toBe(200);
      // The restart notice carries the new generation (clients reload on it); the rest is equal.
      if (holder.params.event_types === undefined) expect(events.find((event) => event.type === "restart")?.server_generation).toBe(fresh.body.server_generation);
      expect(normalize(holder.state)).toEqual(normalize(strip(fresh.body, VOLATILE)));
      await holder.client.delete("/events", { queue_id: fresh.body.queue_id });
    }
    expect(registers).toBe(holders.length);
    console.info(`${holders.length} queues, ${answered.size} messages answered before the kill, ${missed} events missed and served after the restart`);
  }, 120_000);
});
