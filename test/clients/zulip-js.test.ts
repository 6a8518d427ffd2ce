/**
 * zulip-js starting against Rookery, through the library itself: the /register calls it makes
 * (queues.register with the caller's params, JSON-encoding event_types and sending the rest as
 * multipart fields; callOnEachEvent's register with {event_types} alone, null when the caller
 * names none), then what it and its documented usage read from the answer: queue_id and
 * last_event_id (callOnEachEvent), max_message_id (its queues example).
 */
import type { ZulipClient } from "zulip-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateResponse } from "../harness/openapi.js";
import { startServer, type TestServer } from "../harness/server.js";
import { populate } from "./populate.js";
import { int, obj, oneOf, problems, str } from "./shape.js";

let server: TestServer;
let client: ZulipClient;
beforeAll(async () => {
  server = await startServer();
  await populate(server);
  // Loaded after populate: the library installs its own global FormData, which the harness's uploads cannot use.
  const { default: zulip } = await import("zulip-js");
  const hamlet = server.users.hamlet;
  client = await zulip({ username: hamlet.delivery_email, apiKey: hamlet.api_key, realm: server.url });
});
afterAll(() => server.stop());

const QUEUE = obj({ result: oneOf(["success"]), msg: str, queue_id: str, last_event_id: int });

describe("zulip-js's start-up against Rookery", () => {
  it("queues.register({event_types: ['message']}), its example: the queue and max_message_id", async () => {
    const res: unknown = await client.queues.register({ event_types: ["message"] });
    expect(problems(res, obj({ max_message_id: int }))).toEqual([]);
    expect(problems(res, QUEUE)).toEqual([]);
    validateResponse("POST", "/register", 200, res);
  });

  it("callOnEachEvent's register, with no event types (null, as the library sends it): the whole state", async () => {
    const res = (await client.queues.register({ event_types: null })) as Record<string, unknown>;
    expect(problems(res, QUEUE)).toEqual([]);
    validateResponse("POST", "/register", 200, res);
    // null means every event type: the complete state, the current user's block included.
    expect(res).toMatchObject({ user_id: server.users.hamlet.id, email: "hamlet@zulip.com", starred_messages: [expect.any(Number)] });
    expect(Array.isArray(res.realm_user_groups)).toBe(true);
  });

  it("queues.register with other parameters passes them through (as strings: its form fields take no booleans)", async () => {
    const res = (await client.queues.register({ event_types: ["message"], apply_markdown: "true", client_gravatar: "false", fetch_event_types: JSON.stringify(["realm_user"]) })) as Record<string, unknown>;
    expect(problems(res, QUEUE)).toEqual([]);
    expect(res.user_id).toBe(server.users.hamlet.id);
    expect(res.max_message_id).toBeUndefined();
  });
});
