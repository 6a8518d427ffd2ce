import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { error } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, idsIn, sendDirect, sendStream, type Channels } from "./messages-fixtures.js";

let server: TestServer;
let channels: Channels;
const m: Record<string, number> = {};
let all: number[];

beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
  m.a = await sendStream(server, "othello", "Verona", "alpha", "hello world https://example.com");
  m.b = await sendStream(server, "iago", "Verona", "✔ done", "resolved stuff");
  m.c = await sendStream(server, "hamlet", "Denmark", "beta", "nothing");
  m.d = await sendDirect(server, "othello", ["hamlet"], "dm one");
  m.e = await sendDirect(server, "cordelia", ["hamlet", "othello"], "group chat");
  m.f = await sendDirect(server, "hamlet", ["hamlet"], "note to self");
  m.g = await sendStream(server, "iago", "Verona", "alpha", "@**King Hamlet** ping");
  all = Object.values(m);
  const hamlet = server.as("hamlet");
  await hamlet.post("/messages/flags", { messages: [m.a], op: "add", flag: "starred" });
  await hamlet.post("/messages/flags", { messages: [m.d], op: "add", flag: "read" });
  await hamlet.post(`/messages/${m.c}/reactions`, { emoji_name: "smile" });
  await hamlet.post("/user_topics", { stream_id: channels.verona, topic: "alpha", visibility_policy: 3 });
  await hamlet.post("/user_topics", { stream_id: channels.denmark, topic: "beta", visibility_policy: 1 });
});
afterAll(() => server.stop());

const pick = (...keys: string[]) => keys.map((k) => m[k] ?? 0);
const except = (...keys: string[]) => all.filter((id) => !keys.some((k) => m[k] === id));

describe("every operator, plain and negated", () => {
  const cases: [string, () => Json, () => number[], () => number[]][] = [
    ["channel by name", () => ({ operator: "channel", operand: "verona" }), () => pick("a", "b", "g"), () => except("a", "b", "g")],
    ["stream by id", () => ({ operator: "stream", operand: channels.denmark }), () => pick("c"), () => except("c")],
    ["channels:public", () => ({ operator: "channels", operand: "public" }), () => pick("a", "b", "c", "g"), () => except("a", "b", "c", "g")],
    ["topic", () => ({ operator: "topic", operand: "ALPHA" }), () => pick("a", "g"), () => except("a", "g")],
    ["sender by email", () => ({ operator: "sender", operand: "othello@zulip.com" }), () => pick("a", "d"), () => except("a", "d")],
    ["sender by id", () => ({ operator: "sender", operand: server.users.iago.id }), () => pick("b", "g"), () => except("b", "g")],
    ["dm one-to-one", () => ({ operator: "dm", operand: "othello@zulip.com" }), () => pick("d"), () => except("d")],
    ["dm group by ids", () => ({ operator: "dm", operand: [server.users.othello.id, server.users.cordelia.id] }), () => pick("e"), () => except("e")],
    ["pm-with self", () => ({ operator: "pm-with", operand: "hamlet@zulip.com" }), () => pick("f"), () => except("f")],
    ["dm-including", () => ({ operator: "dm-including", operand: "othello@zulip.com" }), () => pick("d", "e"), () => except("d", "e")],
    ["dm-including self", () => ({ operator: "dm-including", operand: server.users.hamlet.id }), () => pick("d", "e", "f"), () => except("d", "e", "f")],
    ["group-pm-with", () => ({ operator: "group-pm-with", operand: "othello@zulip.com" }), () => pick("e"), () => except("e")],
    ["is:dm", () => ({ operator: "is", operand: "dm" }), () => pick("d", "e", "f"), () => except("d", "e", "f")],
    ["is:private", () => ({ operator: "is", operand: "private" }), () => pick("d", "e", "f"), () => except("d", "e", "f")],
    ["is:starred", () => ({ operator: "is", operand: "starred" }), () => pick("a"), () => except("a")],
    ["is:mentioned", () => ({ operator: "is", operand: "mentioned" }), () => pick("g"), () => except("g")],
    ["is:alerted", () => ({ operator: "is", operand: "alerted" }), () => [], () => all],
    ["is:unread", () => ({ operator: "is", operand: "unread" }), () => except("d"), () => pick("d")],
    ["is:resolved", () => ({ operator: "is", operand: "resolved" }), () => pick("b"), () => except("b")],
    ["is:followed", () => ({ operator: "is", operand: "followed" }), () => pick("a", "g"), () => except("a", "g")],
    ["is:muted", () => ({ operator: "is", operand: "muted" }), () => pick("c"), () => except("c")],
    ["in:home", () => ({ operator: "in", operand: "home" }), () => except("c"), () => pick("c")],
    ["has:link", () => ({ operator: "has", operand: "link" }), () => pick("a"), () => except("a")],
    ["has:reaction", () => ({ operator: "has", operand: "reaction" }), () => pick("c"), () => except("c")],
    ["has:image", () => ({ operator: "has", operand: "image" }), () => [], () => all],
    ["has:attachment", () => ({ operator: "has", operand: "attachment" }), () => [], () => all],
    ["id", () => ({ operator: "id", operand: m.b }), () => pick("b"), () => except("b")],
    ["id as a string", () => ({ operator: "id", operand: String(m.e) }), () => pick("e"), () => except("e")],
    ["search content", () => ({ operator: "search", operand: "HELLO" }), () => pick("a"), () => except("a")],
    ["search topic", () => ({ operator: "search", operand: "alpha" }), () => pick("a", "g"), () => except("a", "g")],
    ["search two words", () => ({ operator: "search", operand: "group chat" }), () => pick("e"), () => except("e")],
  ];
  it.each(cases)("%s", async (_name, term, plain, negated) => {
    expect(await idsIn(server, "hamlet", [term()])).toEqual(plain());
    expect(await idsIn(server, "hamlet", [{ ...term(), negated: true }])).toEqual(negated());
  });

  it("near and in:all do not filter", async () => {
    expect(await idsIn(server, "hamlet", [{ operator: "near", operand: String(m.b) }])).toEqual(all);
    expect(await idsIn(server, "hamlet", [{ operator: "in", operand: "all" }])).toEqual(all);
  });

  it("accepts the legacy list of pairs and combines terms", async () => {
    expect(await idsIn(server, "hamlet", [["stream", "Verona"], ["topic", "alpha"]])).toEqual(pick("a", "g"));
    expect(await idsIn(server, "hamlet", [{ operator: "channel", operand: "Verona" }, { operator: "sender", operand: "iago@zulip.com", negated: true }])).toEqual(pick("a"));
    expect(await idsIn(server, "hamlet", [{ operator: "is", operand: "dm", negated: true }, { operator: "dm", operand: "othello@zulip.com" }])).toEqual([]);
  });
});

describe("with", () => {
  it("narrows to the conversation of a readable message", async () => {
    expect(await idsIn(server, "hamlet", [{ operator: "with", operand: m.a ?? 0 }])).toEqual(pick("a", "g"));
    expect(await idsIn(server, "hamlet", [{ operator: "topic", operand: "beta" }, { operator: "with", operand: String(m.g) }])).toEqual(pick("a", "g"));
    expect(await idsIn(server, "hamlet", [{ operator: "with", operand: m.d ?? 0 }])).toEqual(pick("d"));
  });

  it("is dropped when the message cannot be read; refused when not an id", async () => {
    expect(await idsIn(server, "hamlet", [{ operator: "topic", operand: "beta" }, { operator: "with", operand: 999999 }])).toEqual(pick("c"));
    const res = await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "with", operand: "abc" }] });
    expect(res.body).toEqual(error("Invalid narrow operator: Invalid 'with' operator", "BAD_NARROW"));
  });
});

describe("search results", () => {
  it("carry match_content and match_subject with highlights", async () => {
    const res = await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "search", operand: "alpha hello" }] });
    expect(res.body.messages).toHaveLength(1);
    const [found] = res.body.messages;
    expect(found.match_subject).toBe('<span class="highlight">alpha</span>');
    expect(found.match_content).toBe(
      '<p><span class="highlight">hello</span> world <a href="https://example.com">https://example.com</a></p>',
    );
  });
});

describe("BAD_NARROW errors", () => {
  it.each([
    [{ operator: "foo", operand: "x" }, "unknown operator foo"],
    [{ operator: "channel", operand: "nowhere" }, "unknown channel nowhere"],
    [{ operator: "stream", operand: 99999 }, "unknown channel 99999"],
    [{ operator: "channels", operand: "bogus" }, "unknown channels operand bogus"],
    [{ operator: "sender", operand: "nobody@zulip.com" }, "unknown user nobody@zulip.com"],
    [{ operator: "dm", operand: "nobody@zulip.com" }, "unknown user in nobody@zulip.com"],
    [{ operator: "dm", operand: [99999] }, "unknown user in [99999]"],
    [{ operator: "dm-including", operand: "nobody@zulip.com" }, "unknown user nobody@zulip.com"],
    [{ operator: "is", operand: "bogus" }, "unknown 'is' operand bogus"],
    [{ operator: "has", operand: "bogus" }, "unknown 'has' operand bogus"],
    [{ operator: "in", operand: "bogus" }, "unknown 'in' operand bogus"],
    [{ operator: "id", operand: "abc" }, "Invalid message ID"],
  ])("%j", async (term, desc) => {
    const res = await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [term] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(`Invalid narrow operator: ${desc}`, "BAD_NARROW"));
  });

  it("refuses a channel term with a direct-message term", async () => {
    const res = await server.as("hamlet").get("/messages", {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: "channel", operand: "Verona" }, { operator: "dm", operand: "othello@zulip.com" }],
    });
    expect(res.body).toEqual(error("Invalid narrow operator: No message can be both a channel message and direct message", "BAD_NARROW"));
  });
});
