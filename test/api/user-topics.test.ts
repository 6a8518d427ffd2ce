import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams } from "./streams-helpers.js";

let server: TestServer;
let ids: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  ids = { ...(await createStreams(server, "hamlet", ["Verona"])), ...(await createStreams(server, "iago", ["Council"], { invite_only: true })) };
});
afterAll(() => server.stop());

const register = async (who: Parameters<TestServer["as"]>[0], types: string[]) =>
  (await server.as(who).post("/register", { fetch_event_types: types })).body;

describe("POST /user_topics", () => {
  it("sets each policy, even for a topic without messages, and lists it in /register", async () => {
    for (const policy of [1, 2, 3]) {
      const res = await server.as("hamlet").post("/user_topics", { stream_id: ids.Verona!, topic: "Balcony", visibility_policy: policy });
      expect(res.body).toEqual(success());
      expect((await register("hamlet", ["user_topic"])).user_topics).toEqual([
        { stream_id: ids.Verona, topic_name: "Balcony", visibility_policy: policy, last_updated: 1714564800 },
      ]);
    }
  });

  it("matches topics case-insensitively and clears with 0", async () => {
    server.clock.advance(60);
    await server.as("hamlet").post("/user_topics", { stream_id: ids.Verona!, topic: "balcony", visibility_policy: 1 }, { encoding: "multipart" });
    expect((await register("hamlet", ["user_topic"])).user_topics).toEqual([
      { stream_id: ids.Verona, topic_name: "balcony", visibility_policy: 1, last_updated: 1714564860 },
    ]);
    expect((await server.as("hamlet").post("/user_topics", { stream_id: ids.Verona!, topic: "BALCONY", visibility_policy: 0 })).body).toEqual(success());
    expect((await register("hamlet", ["user_topic"])).user_topics).toEqual([]);
  });

  it("validates its parameters", async () => {
    const post = (params: Record<string, string | number>) => server.as("hamlet").post("/user_topics", params);
    expect((await post({ stream_id: ids.Verona!, topic: "t", visibility_policy: 4 })).body).toEqual(error("Invalid visibility_policy"));
    expect((await post({ stream_id: ids.Verona!, topic: "t".repeat(61), visibility_policy: 1 })).body).toEqual(error("topic is too long (limit: 60 characters)"));
    expect((await post({ stream_id: "x", topic: "t", visibility_policy: 1 })).body).toEqual(error("stream_id is not valid JSON"));
    expect((await post({ stream_id: ids.Verona!, visibility_policy: 1 })).body).toEqual(error("Missing 'topic' argument", "REQUEST_VARIABLE_MISSING", { var_name: "topic" }));
  });

  it("needs channel access to set a policy, only the channel's existence to clear one", async () => {
    expect((await server.as("hamlet").post("/user_topics", { stream_id: ids.Council!, topic: "t", visibility_policy: 1 })).body).toEqual(error("Invalid channel ID"));
    expect((await server.as("hamlet").post("/user_topics", { stream_id: 99999, topic: "t", visibility_policy: 1 })).body).toEqual(error("Invalid channel ID"));
    expect((await server.as("hamlet").post("/user_topics", { stream_id: ids.Council!, topic: "t", visibility_policy: 0 })).body).toEqual(success());
    expect((await server.as("hamlet").post("/user_topics", { stream_id: 99999, topic: "t", visibility_policy: 0 })).body).toEqual(error("Invalid channel ID"));
  });

  it("lets a guest set a policy only where they have access", async () => {
    expect((await server.as("polonius").post("/user_topics", { stream_id: ids.Verona!, topic: "t", visibility_policy: 3 })).body).toEqual(error("Invalid channel ID"));
  });
});

describe("PATCH /users/me/subscriptions/muted_topics (deprecated)", () => {
  const patch = (params: Record<string, string | number>) => server.as("othello").patch("/users/me/subscriptions/muted_topics", params);

  it("mutes by channel id or name and shows the legacy muted_topics list", async () => {
    expect((await patch({ stream_id: ids.Verona!, topic: "Duel", op: "add" })).body).toEqual(success());
    expect((await patch({ stream: "Verona", topic: "Feast", op: "add" })).body).toEqual(success());
    const state = await register("othello", ["muted_topics"]);
    expect(state.muted_topics).toEqual([
      ["Verona", "Duel", 1714564860],
      ["Verona", "Feast", 1714564860],
    ]);
  });

  it("is idempotent since feature level 169", async () => {
    expect((await patch({ stream_id: ids.Verona!, topic: "Duel", op: "add" })).body).toEqual(success());
    expect((await patch({ stream_id: ids.Verona!, topic: "Duel", op: "remove" })).body).toEqual(success());
    expect((await patch({ stream_id: ids.Verona!, topic: "Duel", op: "remove" })).body).toEqual(success());
    expect((await register("othello", ["user_topic"])).user_topics).toEqual([
      { stream_id: ids.Verona, topic_name: "Feast", visibility_policy: 1, last_updated: 1714564860 },
    ]);
  });

  it("needs exactly one of stream_id and stream", async () => {
    expect((await patch({ topic: "Duel", op: "add" })).body).toEqual(error("Missing 'stream_id' argument"));
    expect((await patch({ stream_id: ids.Verona!, stream: "Verona", topic: "Duel", op: "add" })).body).toEqual(
      error("Unsupported parameter combination: stream_id, stream", "BAD_REQUEST", { parameters: "stream_id, stream" }),
    );
  });

  it("gives Zulip's errors for bad channels, ops and topics", async () => {
    expect((await patch({ stream: "Nowhere", topic: "Duel", op: "add" })).body).toEqual(error("Invalid channel name 'Nowhere'"));
    expect((await patch({ stream_id: ids.Council!, topic: "Duel", op: "add" })).body).toEqual(error("Invalid channel ID"));
    expect((await patch({ stream: "Nowhere", topic: "Duel", op: "remove" })).body).toEqual(error("Topic is not muted"));
    expect((await patch({ stream_id: 99999, topic: "Duel", op: "remove" })).body).toEqual(error("Topic is not muted"));
    expect((await patch({ stream_id: ids.Verona!, topic: "Duel", op: "toggle" })).body).toEqual(error("Invalid op"));
    expect((await patch({ stream_id: ids.Verona!, topic: "x".repeat(61), op: "add" })).body).toEqual(error("topic is too long (limit: 60 characters)"));
  });

  it("omits muted_topics from /register when user_topic is fetched too", async () => {
    const state = await register("othello", ["user_topic", "muted_topics"]);
    expect(state.user_topics).toHaveLength(1);
    expect(state.muted_topics).toBeUndefined();
    expect((await server.as("othello").post("/register", {})).body.muted_topics).toEqual([["Verona", "Feast", 1714564860]]);
  });
});
