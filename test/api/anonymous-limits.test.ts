import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ anonRateLimitPerMinute: 3 });
});
afterAll(() => server.stop());

async function elapsedMs(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe("unauthenticated calls (Zulip's api_by_ip)", () => {
  it("are counted per address with X-RateLimit headers, then refused with 429 until the window moves", async () => {
    const client = server.anonymous();
    const first = await client.get("/server_settings");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("3");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("2");
    await client.get("/server_settings");
    await client.post("/fetch_api_key", { username: "hamlet@zulip.com", password: server.password });
    const refused = await client.get("/server_settings");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(error("API usage exceeded rate limit", "RATE_LIMIT_HIT", { "retry-after": 60 }));
    expect(refused.headers.get("retry-after")).toBe("60");
    // Authenticated calls are counted per user, not per address.
    expect((await server.as("hamlet").get("/users/me")).status).toBe(200);
    server.clock.advance(61);
    expect((await client.get("/server_settings")).status).toBe(200);
  });
});

describe("POST /fetch_api_key against guessing", () => {
  it("refuses an address longer than 320 characters without remembering it", async () => {
    server.clock.advance(61);
    const before = server.app.ctx.limits.authentication.size;
    const res = await server.anonymous().post("/fetch_api_key", { username: `${"a".repeat(100_000)}@zulip.com`, password: "x" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Enter a valid email address."));
    expect(server.app.ctx.limits.authentication.size).toBe(before);
  });

  it("takes as long for an unknown address as for a known one with a wrong password", async () => {
    const unknown: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < 3; i++) {
      server.clock.advance(61);
      unknown.push(await elapsedMs(() => server.anonymous().post("/fetch_api_key", { username: `nobody${i}@zulip.com`, password: "wrong" })));
      known.push(await elapsedMs(() => server.anonymous().post("/fetch_api_key", { username: "othello@zulip.com", password: "wrong" })));
    }
    // Both hash a password (scrypt, tens of milliseconds); a skipped hash answers in about one.
    expect(median(unknown)).toBeGreaterThan(median(known) / 2);
  });
});
