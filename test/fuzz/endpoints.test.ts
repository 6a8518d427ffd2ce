import SQLite from "../../src/db/sqlite-binding.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allEndpoints } from "../../src/routes/index.js";
import { faultOf, fuzzableEndpoints, fuzzRequest, send, type Caller } from "../harness/fuzz.js";
import { startServer, testBackend, type TestServer } from "../harness/server.js";

let server: TestServer;
let callers: Caller[];

const basic = (email: string, key: string) => "Basic " + Buffer.from(`${email}:${key}`).toString("base64");

beforeAll(async () => {
  server = await startServer();
  const gone = await server.as("iago").post("/users", { email: "gone@zulip.com", password: "gone-password-1", full_name: "Gone" });
  const goneKey = (await server.anonymous().post("/fetch_api_key", { username: "gone@zulip.com", password: "gone-password-1" })).body.api_key as string;
  await server.as("iago").delete(`/users/${gone.body.user_id}`);
  const as = (name: "desdemona" | "iago" | "hamlet" | "polonius" | "bot"): Caller => ({ name, authorization: basic(server.users[name].delivery_email, server.users[name].api_key) });
  callers = [
    as("desdemona"),
    as("iago"),
    as("hamlet"),
    as("polonius"),
    as("bot"),
    { name: "deactivated", authorization: basic("gone@zulip.com", goneKey) },
    { name: "anonymous", authorization: undefined },
    { name: "bad key", authorization: basic("hamlet@zulip.com", "x".repeat(32)) },
  ];
});
afterAll(() => server.stop());

const fuzzed = fuzzableEndpoints(allEndpoints);

describe("every endpoint, fuzzed from its declaration, as every kind of caller", () => {
  it("never answers 5xx, always answers Zulip's envelope, and leaves the database sound", async () => {
    const faults: string[] = [];
    await fc.assert(
      fc.asyncProperty(fuzzRequest(fuzzed, callers), async (request) => {
        const answer = await send(server.url, request);
        const fault = faultOf(answer);
        if (fault) faults.push(`${request.caller}: ${request.method} ${request.path.slice(0, 120)}: ${fault}`);
      }),
      { numRuns: 600, seed: 4242 },
    );
    expect(faults).toEqual([]);
    // Still up (the fuzzing may have deactivated or re-keyed the fixture users themselves).
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    if (testBackend() === "sqlite") {
      const db = new SQLite(`${server.dataDir}/test.sqlite3`, { readonly: true });
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      db.close();
    }
  }, 120_000);
});
