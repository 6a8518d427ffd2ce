import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe("GET /health", () => {
  it("answers Zulip's success envelope without credentials while the database answers", async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ result: "success", msg: "" });
  });

  it("answers 500 with an error envelope once the database is gone", async () => {
    const broken = await startServer();
    await broken.app.ctx.store.close();
    const res = await fetch(`${broken.url}/health`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ result: "error", msg: "Database is unavailable", code: "BAD_REQUEST" });
    await broken.stop();
  });
});
