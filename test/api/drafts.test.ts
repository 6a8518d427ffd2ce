import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams } from "./streams-helpers.js";

let server: TestServer;
let channels: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  channels = await createStreams(server, "iago", ["Denmark"]);
  channels = { ...channels, ...(await createStreams(server, "iago", ["secret"], { invite_only: true })) };
});
afterAll(() => server.stop());

const now = () => Math.floor(server.clock.now() / 1000);
const create = (drafts: Json, who: "hamlet" | "othello" = "hamlet") => server.as(who).post("/drafts", { drafts });
const list = async (who: "hamlet" | "othello" = "hamlet") => (await server.as(who).get("/drafts")).body;

describe("POST /drafts", () => {
  it("creates drafts in order, filling the timestamp", async () => {
    const res = await create([
      { type: "stream", to: [channels.Denmark], topic: "greetings", content: "Hello" },
      { type: "private", to: [server.users.othello.id], topic: "", content: "Hi Othello", timestamp: 1700000000 },
      { type: "", to: [], topic: "", content: "\n\nNo one yet   " },
    ]);
    expect(res.status).toBe(200);
    const ids: number[] = res.body.ids;
    expect(ids).toHaveLength(3);
    expect(await list()).toEqual(
      success({
        count: 3,
        drafts: [
          { id: ids[1], type: "private", to: [server.users.othello.id], topic: "", content: "Hi Othello", timestamp: 1700000000 },
          { id: ids[0], type: "stream", to: [channels.Denmark], topic: "greetings", content: "Hello", timestamp: now() },
          { id: ids[2], type: "", to: [], topic: "", content: "No one yet", timestamp: now() },
        ],
      }),
    );
  });

  it.each([
    [[{ type: "stream", to: [], topic: "t", content: "x" }], "Must specify exactly 1 channel ID for channel messages"],
    [[{ type: "stream", to: [1, 2], topic: "t", content: "x" }], "Must specify exactly 1 channel ID for channel messages"],
    [[{ type: "stream", to: [99999], topic: "t", content: "x" }], "Invalid channel ID"],
    [[{ type: "stream", to: ["x"], topic: "t", content: "x" }], 'drafts[0]["to"][0] is not an integer'],
    [[{ type: "", to: [], topic: "", content: "a\u0000b" }], "Message must not contain null bytes"],
    [[{ type: "stream", to: [1], topic: "a\u0000b", content: "x" }], "Topic must not contain null bytes"],
    [[{ type: "", to: [], topic: "", content: "   " }], 'drafts[0]["content"] cannot be blank'],
    [[{ type: "huddle", to: [], topic: "", content: "x" }], 'Invalid drafts[0]["type"]'],
    [[{ type: "", to: [], topic: "", content: "x", id: 5 }], 'Argument "id" at drafts[0]["id"] is unexpected'],
    [[{ type: "", to: [], topic: "", content: "x", timestamp: -1 }], "Timestamp must not be negative."],
    [[{ type: "private", to: [99999], topic: "", content: "x" }], "No such user"],
    [[{ type: "", topic: "", content: "x" }], 'drafts[0]["to"] field is missing'],
    [{ type: "", to: [], topic: "", content: "x" }, "drafts is not a list"],
    ["[", "drafts is not valid JSON"],
  ])("refuses %j", async (drafts, msg) => {
    const res = await create(drafts);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("refuses a private channel the user cannot access, and writes none of a batch with one bad draft", async () => {
    const before = (await list()).count;
    const res = await create([
      { type: "", to: [], topic: "", content: "fine" },
      { type: "stream", to: [channels.secret], topic: "t", content: "x" },
    ]);
    expect(res.body).toEqual(error("Invalid channel ID"));
    expect((await list()).count).toBe(before);
  });

  it("truncates long topics and content", async () => {
    const res = await create([{ type: "stream", to: [channels.Denmark], topic: "t".repeat(70), content: "c".repeat(10010) }]);
    const id = res.body.ids[0];
    const draft = (await list()).drafts.find((d: Json) => d.id === id);
    expect(draft.topic).toBe("t".repeat(57) + "...");
    expect(draft.content).toBe("c".repeat(10000 - 20) + "\n[message truncated]");
    expect(draft.content).toHaveLength(10000);
  });

  it("requires the drafts parameter", async () => {
    const res = await server.as("hamlet").post("/drafts", {});
    expect(res.body).toEqual(error("Missing 'drafts' argument", "REQUEST_VARIABLE_MISSING", { var_name: "drafts" }));
  });
});

describe("PATCH and DELETE /drafts/{draft_id}", () => {
  it("edits a draft", async () => {
    const id = (await create([{ type: "", to: [], topic: "", content: "first" }])).body.ids[0];
    server.clock.advance(10);
    const res = await server.as("hamlet").patch(`/drafts/${id}`, { draft: { type: "stream", to: [channels.Denmark], topic: "moved", content: "second" } });
    expect(res.body).toEqual(success());
    expect((await list()).drafts.find((d: Json) => d.id === id)).toEqual({ id, type: "stream", to: [channels.Denmark], topic: "moved", content: "second", timestamp: now() });
  });

  it("answers 404 for a missing draft or another user's", async () => {
    const theirs = (await create([{ type: "", to: [], topic: "", content: "mine" }], "othello")).body.ids[0];
    for (const id of [99999, theirs]) {
      const edit = await server.as("hamlet").patch(`/drafts/${id}`, { draft: { type: "", to: [], topic: "", content: "x" } });
      expect(edit.status).toBe(404);
      expect(edit.body).toEqual(error("Draft does not exist"));
      const del = await server.as("hamlet").delete(`/drafts/${id}`);
      expect(del.status).toBe(404);
      expect(del.body).toEqual(error("Draft does not exist"));
    }
  });

  it("validates the edited draft", async () => {
    const id = (await create([{ type: "", to: [], topic: "", content: "x" }])).body.ids[0];
    const res = await server.as("hamlet").patch(`/drafts/${id}`, { draft: { type: "stream", to: [], topic: "t", content: "x" } });
    expect(res.body).toEqual(error("Must specify exactly 1 channel ID for channel messages"));
    const bad = await server.as("hamlet").patch(`/drafts/${id}`, { draft: { type: "", to: [], topic: "", content: "x", id } });
    expect(bad.body).toEqual(error('Argument "id" at draft["id"] is unexpected'));
  });

  it("deletes a draft", async () => {
    const id = (await create([{ type: "", to: [], topic: "", content: "bye" }])).body.ids[0];
    expect((await server.as("hamlet").delete(`/drafts/${id}`)).body).toEqual(success());
    expect((await list()).drafts.some((d: Json) => d.id === id)).toBe(false);
  });

  it("records a group direct message draft with every participant", async () => {
    const { othello, cordelia, hamlet } = server.users;
    const id = (await create([{ type: "private", to: [cordelia.id, othello.id], topic: "", content: "all of us" }])).body.ids[0];
    expect((await list()).drafts.find((d: Json) => d.id === id).to).toEqual([hamlet.id, othello.id, cordelia.id].sort((a, b) => a - b));
  });
});

describe("with draft synchronisation turned off", () => {
  it("deletes the server's drafts and refuses every /drafts endpoint", async () => {
    await server.as("othello").patch("/settings", { enable_drafts_synchronization: false });
    const refused = error("User has disabled synchronizing drafts.");
    expect((await server.as("othello").get("/drafts")).body).toEqual(refused);
    expect((await create([{ type: "", to: [], topic: "", content: "x" }], "othello")).body).toEqual(refused);
    expect((await server.as("othello").patch("/drafts/1", { draft: { type: "", to: [], topic: "", content: "x" } })).body).toEqual(refused);
    expect((await server.as("othello").delete("/drafts/1")).body).toEqual(refused);
    await server.as("othello").patch("/settings", { enable_drafts_synchronization: true });
    expect(await list("othello")).toEqual(success({ count: 0, drafts: [] }));
  });
});
