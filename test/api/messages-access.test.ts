import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createChannels, idsIn, sendDirect, sendStream, type Channels } from "./messages-fixtures.js";

let server: TestServer;
let channels: Channels;
let secretId: number;
let vaultBefore: number;
let vaultAfter: number;
let dmId: number;
let publicId: number;

// Who may read what: secret (private, shared history: iago, hamlet), vault (private, protected
// history; cordelia joins after vaultBefore), a DM between othello and iago, and Denmark (public).
beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
  secretId = await sendStream(server, "hamlet", "secret", "plans", "the secret plan");
  dmId = await sendDirect(server, "othello", ["iago"], "the secret word");
  publicId = await sendStream(server, "iago", "Denmark", "news", "public secret");
  await server.as("iago").delete("/users/me/subscriptions", { subscriptions: ["vault"], principals: [server.users.cordelia.id] });
  vaultBefore = await sendStream(server, "iago", "vault", "v", "secret before cordelia");
  await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "vault" }], principals: [server.users.cordelia.id] });
  vaultAfter = await sendStream(server, "iago", "vault", "v", "secret after cordelia");
});
afterAll(() => server.stop());

const readers: Record<number, () => FixtureName[]> = {};

describe("who reads which message", () => {
  const everyone: FixtureName[] = ["desdemona", "iago", "shiva", "hamlet", "othello", "cordelia", "polonius"];
  beforeAll(() => {
    readers[secretId] = () => ["iago", "hamlet"];
    readers[dmId] = () => ["iago", "othello"];
    readers[publicId] = () => ["desdemona", "iago", "shiva", "hamlet", "othello", "cordelia"];
    readers[vaultBefore] = () => ["iago", "hamlet"];
    readers[vaultAfter] = () => ["iago", "hamlet", "cordelia"];
  });

  it.each(everyone)("%s sees exactly what they may, by every route", async (who) => {
    for (const id of [secretId, dmId, publicId, vaultBefore, vaultAfter]) {
      const may = (readers[id] ?? (() => []))().includes(who);
      const single = await server.as(who).get(`/messages/${id}`);
      expect([id, who, single.status]).toEqual([id, who, may ? 200 : 400]);
      if (!may) expect(single.body).toEqual(error("Invalid message(s)"));
      const star = await server.as(who).post("/messages/flags", { messages: [id], op: "add", flag: "starred" });
      expect([id, who, star.status]).toEqual([id, who, may ? 200 : 400]);
      const react = await server.as(who).post(`/messages/${id}/reactions`, { emoji_name: "smile" });
      expect([id, who, react.status]).toEqual([id, who, may ? 200 : 400]);
    }
    const narrows = [
      [],
      [{ operator: "search", operand: "secret" }],
      [{ operator: "channels", operand: "public" }],
      [{ operator: "channel", operand: "Denmark" }],
      [{ operator: "is", operand: "starred" }],
    ];
    for (const narrow of narrows) {
      for (const id of await idsIn(server, who, narrow)) {
        expect([id, who, (readers[id] ?? (() => everyone))().includes(who)]).toEqual([id, who, true]);
      }
    }
    for (const operand of ["secret", "vault"]) {
      const res = await server.as(who).get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "channel", operand }] });
      for (const m of res.body.messages) expect([m.id, who, (readers[m.id] ?? (() => []))().includes(who)]).toEqual([m.id, who, true]);
    }
    const matches = await server.as(who).get("/messages/matches_narrow", { msg_ids: [secretId, dmId, publicId, vaultBefore, vaultAfter], narrow: [] });
    for (const id of Object.keys(matches.body.messages)) expect([id, who, (readers[Number(id)] ?? (() => []))().includes(who)]).toEqual([id, who, true]);
    const marked = await server.as(who).post("/messages/flags/narrow", {
      anchor: "oldest",
      num_before: 0,
      num_after: 100,
      narrow: [{ operator: "search", operand: "secret" }],
      op: "add",
      flag: "collapsed",
    });
    expect(marked.status).toBe(200);
    const visible = [secretId, dmId, publicId, vaultBefore, vaultAfter].filter((id) => (readers[id] ?? (() => []))().includes(who));
    expect(marked.body.processed_count).toBeLessThanOrEqual(visible.length);
  });

  it("a subscriber who joined later does not see protected history, even by channel narrow", async () => {
    expect(await idsIn(server, "cordelia", [{ operator: "channel", operand: "vault" }])).toEqual([vaultAfter]);
  });

  it("a channel's shared history is readable to a new subscriber", async () => {
    await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "secret" }], principals: [server.users.shiva.id] });
    expect(await idsIn(server, "shiva", [{ operator: "channel", operand: channels.secret }])).toEqual([secretId]);
    expect((await server.as("shiva").get(`/messages/${secretId}`)).status).toBe(200);
  });
});

describe("events", () => {
  it("deliver a message only to those who receive it", async () => {
    const queues: Record<string, { queue_id: string; last_event_id: number }> = {};
    const who: FixtureName[] = ["iago", "hamlet", "othello", "polonius", "desdemona"];
    for (const name of who) queues[name] = (await server.as(name).post("/register", { event_types: ["message"] })).body;
    const id = await sendStream(server, "iago", "secret", "plans", "events test");
    for (const name of who) {
      const q = queues[name];
      if (!q) continue;
      const res = await server.as(name).get("/events", { queue_id: q.queue_id, last_event_id: q.last_event_id, dont_block: true });
      const got = (res.body.events as { type: string; message?: { id: number } }[]).filter((e) => e.type === "message").map((e) => e.message?.id);
      expect([name, got]).toEqual([name, ["iago", "hamlet"].includes(name) ? [id] : []]);
    }
  });
});
