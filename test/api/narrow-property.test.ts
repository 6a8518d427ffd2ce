import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createStreams } from "./streams-helpers.js";

/**
 * Property: for random channels, subscriptions, messages, flags and narrows, GET /messages
 * returns exactly what a brute-force filter over a model of the same data returns.
 */

const HUMANS: FixtureName[] = ["desdemona", "iago", "shiva", "hamlet", "othello", "cordelia", "polonius"];
const WORDS = ["apple", "banana", "cherry", "delta"];
const TOPICS = ["t1", "t2", "T1"];

interface ModelChannel {
  id: number;
  name: string;
  inviteOnly: boolean;
  historyPublic: boolean;
  subscribers: Set<number>;
}
interface ModelMessage {
  id: number;
  streamId: number | null;
  topic: string;
  content: string;
  senderId: number;
  dmIds: number[];
  recipients: Set<number>;
}

let server: TestServer;
const channels: ModelChannel[] = [];
const messages: ModelMessage[] = [];
const starred = new Set<string>();
const read = new Set<string>();
const uid = (n: FixtureName) => server.users[n].id;
const isGuest = (id: number) => id === uid("polonius");

beforeAll(async () => {
  server = await startServer();
  const rng = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { seed: 2751, numRuns: 2000 });
  let at = 0;
  const next = (n: number) => (rng[at++ % rng.length] ?? 0) % n;
  for (let c = 0; c < 4; c++) {
    const inviteOnly = c >= 2;
    const members = HUMANS.filter(() => next(2) === 0);
    if (members.length === 0) members.push("iago");
    const name = `chan${c}`;
    const historyPublic = !inviteOnly || c === 2;
    // Made as Zulip's tests make them (no creation notice, which the model does not know).
    await createStreams(server, "iago", [name], { principals: members.map(uid), invite_only: inviteOnly, history_public_to_subscribers: historyPublic });
    // iago created it and is subscribed unless not listed; read the real subscriber set back.
    const id = (await server.app.ctx.db.selectFrom("stream").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;
    const subs = await server.app.ctx.db.selectFrom("subscription").select("user_id").where("stream_id", "=", id).where("active", "=", 1).execute();
    channels.push({ id, name, inviteOnly, historyPublic, subscribers: new Set(subs.map((s) => s.user_id)) });
  }
  for (let i = 0; i < 70; i++) {
    const content = Array.from({ length: 1 + next(3) }, () => WORDS[next(WORDS.length)]).join(" ");
    if (next(3) > 0) {
      const ch = channels[next(channels.length)];
      if (!ch) continue;
      const senders = [...ch.subscribers];
      const senderId = senders[next(senders.length)] ?? uid("iago");
      const sender = HUMANS.find((h) => uid(h) === senderId) ?? "iago";
      const topic = TOPICS[next(TOPICS.length)] ?? "t1";
      const res = await server.as(sender).post("/messages", { type: "stream", to: ch.name, topic, content });
      expect(res.status).toBe(200);
      messages.push({ id: res.body.id, streamId: ch.id, topic, content, senderId, dmIds: [], recipients: new Set([...ch.subscribers, senderId]) });
    } else {
      const sender = HUMANS[next(HUMANS.length)] ?? "hamlet";
      const to = HUMANS.filter(() => next(3) === 0);
      if (to.length === 0) to.push(HUMANS[next(HUMANS.length)] ?? "othello");
      const res = await server.as(sender).post("/messages", { type: "direct", to: to.map(uid), content });
      expect(res.status).toBe(200);
      const dmIds = [...new Set([uid(sender), ...to.map(uid)])].sort((a, b) => a - b);
      messages.push({ id: res.body.id, streamId: null, topic: "", content, senderId: uid(sender), dmIds, recipients: new Set(dmIds) });
    }
  }
  for (let i = 0; i < 60; i++) {
    const m = messages[next(messages.length)];
    const who = HUMANS[next(HUMANS.length)] ?? "hamlet";
    if (!m || !m.recipients.has(uid(who))) continue;
    const flag = next(2) === 0 ? "starred" : "read";
    await server.as(who).post("/messages/flags", { messages: [m.id], op: "add", flag });
    (flag === "starred" ? starred : read).add(`${uid(who)}:${m.id}`);
  }
});
afterAll(() => server.stop());

type Term = { operator: string; operand: string | number | number[]; negated?: boolean };

function termArb(): fc.Arbitrary<Term> {
  const user = fc.constantFrom(...HUMANS);
  const base = fc.oneof(
    fc.integer({ min: 0, max: 3 }).map((i): Term => ({ operator: "channel", operand: `chan${i}` })),
    fc.integer({ min: 0, max: 3 }).map((i): Term => ({ operator: "stream", operand: channels[i]?.id ?? 0 })),
    fc.constantFrom("t1", "t2", "T2").map((t): Term => ({ operator: "topic", operand: t })),
    user.map((u): Term => ({ operator: "sender", operand: `${u}@zulip.com` })),
    fc.subarray(HUMANS, { minLength: 1, maxLength: 3 }).map((us): Term => ({ operator: "dm", operand: us.map(uid) })),
    user.map((u): Term => ({ operator: "dm-including", operand: uid(u) })),
    fc.constantFrom("dm", "starred", "unread").map((o): Term => ({ operator: "is", operand: o })),
    // "ban" is a part of a word only: search matches whole words.
    fc.subarray([...WORDS, "ban"], { minLength: 1, maxLength: 2 }).map((ws): Term => ({ operator: "search", operand: ws.join(" ") })),
    fc.integer({ min: 0, max: 69 }).map((i): Term => ({ operator: "id", operand: messages[i]?.id ?? 0 })),
  );
  return fc.tuple(base, fc.boolean()).map(([t, negated]) => (negated ? { ...t, negated } : t));
}

function canReadHistory(viewer: number, ch: ModelChannel): boolean {
  if (!ch.inviteOnly) return !isGuest(viewer);
  return ch.historyPublic && ch.subscribers.has(viewer);
}

function channelOf(operand: Term["operand"]): ModelChannel | undefined {
  return channels.find((c) => c.name === operand || c.id === operand);
}

function matches(viewer: number, t: Term, m: ModelMessage): boolean {
  const lower = (s: string) => s.toLowerCase();
  switch (t.operator) {
    case "channel":
    case "stream":
      return m.streamId === channelOf(t.operand)?.id;
    case "topic":
      return lower(m.topic) === lower(String(t.operand));
    case "sender":
      return HUMANS.some((h) => `${h}@zulip.com` === t.operand && uid(h) === m.senderId);
    case "dm": {
      const key = [...new Set([...(t.operand as number[]), viewer])].sort((a, b) => a - b).join(",");
      return m.dmIds.join(",") === key;
    }
    case "dm-including":
      return m.dmIds.length > 0 && (t.operand === viewer || (m.dmIds.includes(Number(t.operand)) && m.dmIds.includes(viewer)));
    case "is":
      if (t.operand === "dm") return m.dmIds.length > 0;
      if (t.operand === "starred") return starred.has(`${viewer}:${m.id}`);
      return !read.has(`${viewer}:${m.id}`);
    case "search": {
      // Whole words of the content or topic, case-insensitively (no two of WORDS share a stem).
      const words = new Set(lower(`${m.content} ${m.topic}`).split(" "));
      return String(t.operand)
        .split(" ")
        .every((w) => words.has(w));
    }
    default:
      return m.id === Number(t.operand);
  }
}

/** The brute-force answer: ids, or "error" for a narrow Zulip refuses. */
function expected(viewer: number, terms: Term[]): number[] | "error" {
  const kind = (t: Term) =>
    ["channel", "stream", "topic"].includes(t.operator) ? "channel" : ["dm", "dm-including"].includes(t.operator) || (t.operator === "is" && t.operand === "dm") ? "dm" : null;
  const positive = terms.filter((t) => !t.negated);
  if (positive.some((t) => kind(t) === "channel") && positive.some((t) => kind(t) === "dm")) return "error";
  let history = positive.some((t) => (t.operator === "channel" || t.operator === "stream") && canReadHistory(viewer, channelOf(t.operand) as ModelChannel));
  if (terms.some((t) => t.operator === "is")) history = false;
  return messages
    .filter((m) => history || m.recipients.has(viewer))
    .filter((m) => terms.every((t) => matches(viewer, t, m) !== Boolean(t.negated)))
    .map((m) => m.id);
}

describe("GET /messages against a brute-force filter", () => {
  it("agrees for random viewers and narrows", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HUMANS), fc.array(termArb(), { minLength: 1, maxLength: 3 }), async (who, terms) => {
        const res = await server.as(who).get("/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow: terms as Json });
        const want = expected(uid(who), terms);
        if (want === "error") {
          expect(res.body.code).toBe("BAD_NARROW");
          return;
        }
        expect(res.status).toBe(200);
        expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual(want);
      }),
      { numRuns: 300, seed: 275 },
    );
  });
});
