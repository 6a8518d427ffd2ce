import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import type { FixtureName } from "../harness/server.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, idsIn, sendStream, silentMention, topicIn, type Channels } from "./messages-fixtures.js";

let server: TestServer;
let ch: Channels;

beforeAll(async () => {
  server = await startServer();
  ch = await createChannels(server);
});
afterAll(() => server.stop());

const mention = (who: FixtureName) => silentMention(server, who);
const get = async (who: FixtureName, id: number): Promise<Json> => (await server.as(who).get(`/messages/${id}`)).body;
const newest = async (stream: string, topic: string) => {
  const ids = await idsIn(server, "iago", topicIn(stream, topic));
  return ids[ids.length - 1] ?? 0;
};

describe("resolving topics", () => {
  it("the ✔ prefix resolves a topic: the Notification Bot says so, unread only for participants", async () => {
    const first = await sendStream(server, "othello", "Verona", "bug", "it crashes");
    await sendStream(server, "cordelia", "Verona", "bug", "me too");
    await server.as("desdemona").post(`/messages/${first}/reactions`, { emoji_name: "smile" });
    const res = await server.as("hamlet").patch(`/messages/${first}`, { topic: "✔ bug", propagate_mode: "change_all" });
    expect(res.status).toBe(200);
    const notice = await newest("Verona", "✔ bug");
    const got = await get("iago", notice);
    expect(got.raw_content).toBe(`${mention("hamlet")} has marked this topic as resolved.`);
    expect(got.message.sender_email).toBe("notification-bot@zulip.com");
    // Senders and reactors of the resolved messages see it unread; the resolver and everyone else read.
    for (const who of ["othello", "cordelia", "desdemona"] as const) expect((await get(who, notice)).message.flags).toEqual([]);
    for (const who of ["hamlet", "iago"] as const) expect((await get(who, notice)).message.flags).toEqual(["read"]);
    // Resolving is the notice: no "moved here" message follows it.
    expect(await idsIn(server, "iago", topicIn("Verona", "✔ bug"))).toHaveLength(3);
    expect(await idsIn(server, "iago", [{ operator: "is", operand: "resolved" }, { operator: "channel", operand: "Verona" }])).toContain(first);
  });

  it("removing the prefix unresolves it", async () => {
    const id = await sendStream(server, "othello", "Verona", "✔ done", "x");
    await server.as("hamlet").patch(`/messages/${id}`, { topic: "done", propagate_mode: "change_all" });
    expect((await get("iago", await newest("Verona", "done"))).raw_content).toBe(`${mention("hamlet")} has marked this topic as unresolved.`);
    expect(await idsIn(server, "iago", [{ operator: "is", operand: "resolved" }, { operator: "topic", operand: "done" }])).toEqual([]);
  });

  it("resolving while renaming also says where the messages came from", async () => {
    const id = await sendStream(server, "othello", "Verona", "typo", "x");
    await server.as("hamlet").patch(`/messages/${id}`, { topic: "✔ fixed typo", propagate_mode: "change_all" });
    const ids = await idsIn(server, "iago", topicIn("Verona", "✔ fixed typo"));
    expect(ids).toHaveLength(3);
    expect((await get("iago", ids[1] ?? 0)).raw_content).toBe(`${mention("hamlet")} has marked this topic as resolved.`);
    expect((await get("iago", ids[2] ?? 0)).raw_content).toBe(`This topic was moved here from #**Verona>typo** by ${mention("hamlet")}.`);
  });

  it("resolving while moving to another channel posts both notices there", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "ship it", "x");
    await server.as("hamlet").patch(`/messages/${id}`, { topic: "✔ ship it", stream_id: ch.denmark, propagate_mode: "change_all" });
    const ids = await idsIn(server, "iago", topicIn("Denmark", "✔ ship it"));
    expect((await get("iago", ids[1] ?? 0)).raw_content).toBe(`${mention("hamlet")} has marked this topic as resolved.`);
    expect((await get("iago", ids[2] ?? 0)).raw_content).toBe(`This topic was moved here from #**Verona>ship it** by ${mention("hamlet")}.`);
  });

  it("a topic rename that keeps the resolved state sends no resolve notice", async () => {
    const id = await sendStream(server, "othello", "Verona", "✔ old name", "x");
    await server.as("hamlet").patch(`/messages/${id}`, { topic: "✔ new name", propagate_mode: "change_all", send_notification_to_new_thread: false });
    expect(await idsIn(server, "iago", topicIn("Verona", "✔ new name"))).toEqual([id]);
  });
});

describe("topic visibility follows a whole-topic move", () => {
  const policies = async (who: FixtureName) =>
    ((await server.as(who).post("/register", { fetch_event_types: ["user_topic"] })).body.user_topics as Json[]).map((t) => [t.stream_id, t.topic_name, t.visibility_policy]);

  it("moves each user's policy to the new channel and topic", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "followed", "x");
    await server.as("othello").post("/user_topics", { stream_id: ch.verona, topic: "followed", visibility_policy: 3 });
    await server.as("cordelia").post("/user_topics", { stream_id: ch.verona, topic: "followed", visibility_policy: 1 });
    await server.as("hamlet").patch(`/messages/${id}`, { stream_id: ch.denmark, topic: "still followed", propagate_mode: "change_all" });
    expect(await policies("othello")).toEqual([[ch.denmark, "still followed", 3]]);
    expect(await policies("cordelia")).toEqual([[ch.denmark, "still followed", 1]]);
  });

  it("merges with the destination's policies when it already had messages, the more visible winning", async () => {
    await sendStream(server, "hamlet", "Verona", "merge into", "x");
    const id = await sendStream(server, "hamlet", "Verona", "merge from", "y");
    await server.as("cordelia").post("/user_topics", { stream_id: ch.verona, topic: "merge from", visibility_policy: 1 });
    await server.as("cordelia").post("/user_topics", { stream_id: ch.verona, topic: "merge into", visibility_policy: 2 });
    await server.as("desdemona").post("/user_topics", { stream_id: ch.verona, topic: "merge from", visibility_policy: 1 });
    await server.as("hamlet").patch(`/messages/${id}`, { topic: "merge into", propagate_mode: "change_all" });
    const cordelia = await policies("cordelia");
    expect(cordelia).toContainEqual([ch.verona, "merge into", 2]);
    expect(cordelia.filter((p) => p[1] === "merge from")).toEqual([]);
    // Muted on one side, nothing on the other: the merge falls back to inheriting.
    expect((await policies("desdemona")).filter((p) => String(p[1]).startsWith("merge"))).toEqual([]);
  });

  it("moving one message of several leaves the policy where it was", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "partial", "x");
    await sendStream(server, "hamlet", "Verona", "partial", "y");
    await server.as("othello").post("/user_topics", { stream_id: ch.verona, topic: "partial", visibility_policy: 3 });
    await server.as("hamlet").patch(`/messages/${id}`, { stream_id: ch.denmark });
    expect(await policies("othello")).toContainEqual([ch.verona, "partial", 3]);
  });
});
