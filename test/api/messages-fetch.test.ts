import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, idsIn, sendDirect, sendStream, type Channels } from "./messages-fixtures.js";

let server: TestServer;
let channels: Channels;
let ids: number[];

beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
  ids = [];
  for (let i = 0; i < 6; i++) ids.push(await sendStream(server, "othello", "Verona", "range", `m${i}`));
});
afterAll(() => server.stop());

const NEWEST = 10_000_000_000_000_000;
const range = (extra: Record<string, unknown>) =>
  server.as("hamlet").get("/messages", { narrow: [{ operator: "topic", operand: "range" }], ...extra } as Record<string, string | number | boolean | object>);

describe("GET /messages ranges", () => {
  it("anchor newest: the latest messages, found_newest, anchor resolved to 10^16", async () => {
    const res = await range({ anchor: "newest", num_before: 3, num_after: 0 });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(3));
    expect(res.body).toMatchObject({ result: "success", msg: "", found_anchor: false, found_oldest: false, found_newest: true, history_limited: false, anchor: NEWEST });
  });

  it("anchor oldest: found_oldest, anchor 0", async () => {
    const res = await range({ anchor: "oldest", num_before: 0, num_after: 2 });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(0, 2));
    expect(res.body).toMatchObject({ found_anchor: false, found_oldest: true, found_newest: false, anchor: 0 });
  });

  it("an id anchor in the middle with both sides", async () => {
    const res = await range({ anchor: String(ids[2]), num_before: 1, num_after: 1 });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(1, 4));
    expect(res.body).toMatchObject({ found_anchor: true, found_oldest: false, found_newest: false, anchor: ids[2] });
    const wide = await range({ anchor: String(ids[2]), num_before: 10, num_after: 10 });
    expect(wide.body).toMatchObject({ found_anchor: true, found_oldest: true, found_newest: true });
  });

  it("include_anchor false at one end; num_before=num_after=0 returns the anchor only", async () => {
    const res = await range({ anchor: String(ids[2]), num_before: 2, num_after: 0, include_anchor: false });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(0, 2));
    expect(res.body.found_anchor).toBe(false);
    const only = await range({ anchor: String(ids[4]), num_before: 0, num_after: 0 });
    expect(only.body.messages.map((m: { id: number }) => m.id)).toEqual([ids[4]]);
    expect(only.body).toMatchObject({ found_anchor: true, found_oldest: false, found_newest: false });
  });

  it("first_unread: the oldest unread of the narrow, else newest", async () => {
    await server.as("hamlet").post("/messages/flags", { messages: ids.slice(0, 3), op: "add", flag: "read" });
    const res = await range({ anchor: "first_unread", num_before: 0, num_after: 1 });
    expect(res.body.anchor).toBe(ids[3]);
    // The anchor plus num_after messages after it.
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids[3], ids[4]]);
    const none = await server.as("hamlet").get("/messages", { anchor: "first_unread", num_before: 0, num_after: 1, narrow: [{ operator: "topic", operand: "nothing" }] });
    expect(none.body.anchor).toBe(NEWEST);
    const legacy = await range({ use_first_unread_anchor: true, num_before: 0, num_after: 1 });
    expect(legacy.body.anchor).toBe(ids[3]);
  });

  it("first_unread in a channel: its oldest unread outside muted topics, whatever is unread elsewhere", async () => {
    await server.as("hamlet").post("/mark_stream_as_read", { stream_id: channels.denmark });
    await sendStream(server, "iago", "Verona", "elsewhere", "unread in another channel, and older");
    await sendStream(server, "iago", "Denmark", "quiet", "unread in a muted topic");
    const first = await sendStream(server, "iago", "Denmark", "loud", "the first unread");
    await sendStream(server, "iago", "Denmark", "loud", "the second unread");
    expect((await server.as("hamlet").post("/user_topics", { stream_id: channels.denmark, topic: "quiet", visibility_policy: 1 })).status).toBe(200);
    const res = await server.as("hamlet").get("/messages", { anchor: "first_unread", num_before: 0, num_after: 0, narrow: [{ operator: "channel", operand: channels.denmark }] });
    expect(res.body).toMatchObject({ anchor: first, found_anchor: true });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([first]);
    await server.as("hamlet").post("/mark_stream_as_read", { stream_id: channels.denmark });
    const read = await server.as("hamlet").get("/messages", { anchor: "first_unread", num_before: 1, num_after: 0, narrow: [{ operator: "channel", operand: channels.denmark }] });
    expect(read.body).toMatchObject({ anchor: NEWEST, found_newest: true });
  });

  it("negative anchors clamp to 0 and huge ones to 10^16", async () => {
    expect((await range({ anchor: "-5", num_before: 0, num_after: 1 })).body.anchor).toBe(0);
    expect((await range({ anchor: "99999999999999999999", num_before: 1, num_after: 0 })).body.anchor).toBe(NEWEST);
  });

  it.each([
    [{ num_before: 1, num_after: 0 }, error("Missing 'anchor' argument.")],
    [{ anchor: "sideways", num_before: 1, num_after: 0 }, error("Invalid anchor")],
    [{ anchor: "newest", num_before: 4000, num_after: 1001 }, error("Too many messages requested (maximum 5000).")],
    [{ anchor: "10", num_before: 1, num_after: 1, include_anchor: false }, error("The anchor can only be excluded at an end of the range")],
    [{ anchor: "newest", num_before: -1 }, error("num_before is too small")],
    [{ anchor: "newest", num_before: "x" }, error("num_before is not valid JSON")],
    [{ anchor: "newest", narrow: "{" }, error("narrow is not valid JSON")],
    [{ anchor: "newest", narrow: "{}" }, error("narrow is not a list")],
    [{ anchor: "newest", narrow: "[[],[]]" }, error("Invalid narrow[0]: Value error, element is not a string pair")],
    [{ anchor: "newest", narrow: '["asadasd"]' }, error("Invalid narrow[0]: Value error, dict or list required")],
    [{ anchor: "newest", narrow: '[["topic","x"],{"operand":"x"}]' }, error("Invalid narrow[1]: Value error, operator is missing")],
    [{ anchor: "newest", narrow: '[{"operator":"stream","operand":null}]' }, error("Invalid narrow[0]: Value error, operand is missing")],
    [{ anchor: "newest", narrow: '[{"operator":"topic","operand":5}]' }, error("operand is not a string")],
    [{ anchor: "newest", narrow: '[{"operator":"search","operand":"  "}]' }, error("operand cannot be blank.")],
    [{ anchor: "newest", narrow: '[{"operator":"stream","operand":[1]}]' }, error("operand is not a string or integer")],
    [{ anchor: "newest", narrow: '[{"operator":"dm","operand":{}}]' }, error("operand is not a string or an integer list")],
    [{ anchor: "newest", narrow: '[{"operator":"topic","operand":"x","negated":1}]' }, error('narrow[0]["negated"] is not a boolean')],
  ])("refuses %j", async (params, expected) => {
    const res = await server.as("hamlet").get("/messages", params as Record<string, string | number | boolean>);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });
});

describe("GET /messages message objects", () => {
  it("raw Markdown with apply_markdown=false, null avatar under client_gravatar", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "fmt", "*x*");
    const res = await server.as("hamlet").get("/messages", { anchor: String(id), num_before: 0, num_after: 0, apply_markdown: false });
    const [m] = res.body.messages;
    expect(m.content).toBe("*x*");
    expect(m.content_type).toBe("text/x-markdown");
    expect(m.avatar_url).toBeNull();
    const html = await server.as("hamlet").get("/messages", { anchor: String(id), num_before: 0, num_after: 0, client_gravatar: false });
    expect(html.body.messages[0].content).toBe("<p><em>x</em></p>");
    expect(html.body.messages[0].avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
  });

  it("the combined feed holds what the user received, flags included", async () => {
    const dm = await sendDirect(server, "othello", ["hamlet"], "psst");
    const res = await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 1, num_after: 0 });
    expect(res.body.messages).toHaveLength(1);
    expect(res.body.messages[0]).toMatchObject({ id: dm, type: "private", flags: [] });
  });

  it("history of a public channel shows as read and historical to a non-subscriber", async () => {
    const id = await sendStream(server, "iago", "Denmark", "history", "old news");
    const res = await server.as("cordelia").get("/messages", { anchor: String(id), num_before: 0, num_after: 0, narrow: [{ operator: "channel", operand: channels.denmark }] });
    expect(res.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags])).toEqual([[id, ["read", "historical"]]]);
    expect(await idsIn(server, "cordelia", [])).not.toContain(id);
  });
});

describe("GET /messages/{id}", () => {
  it("answers Invalid message(s) for missing and hidden messages alike", async () => {
    const dm = await sendDirect(server, "othello", ["iago"], "private words");
    for (const path of [`/messages/${dm}`, "/messages/999999", "/messages/99999999999"]) {
      const res = await server.as("hamlet").get(path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error("Invalid message(s)"));
    }
    expect((await server.as("iago").get(`/messages/${dm}`)).body).toMatchObject(success({ raw_content: "private words" }));
  });
});
