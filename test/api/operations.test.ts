import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { Client } from "../harness/client.js";

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

describe("GET /metrics", () => {
  // Metrics are each process's own (every process is scraped on its own address, not through the
  // load balancer): every request here goes to the process that is then asked.
  const direct = (who: "hamlet" | "othello") => new Client(server.processUrl, { email: server.users[who].delivery_email, apiKey: server.users[who].api_key });

  it("counts requests per route and status, and reports queues, polls and events in Prometheus' text format", async () => {
    const registered = await direct("hamlet").post("/register", { event_types: ["message"] });
    await direct("hamlet").get("/users/me");
    await direct("hamlet").get("/users/me");
    const sent = await direct("othello").post("/messages", { type: "private", to: JSON.stringify([server.users.hamlet.id]), content: "counted" });
    expect(sent.status).toBe(200);
    await direct("hamlet").get("/events", { queue_id: registered.body.queue_id, last_event_id: -1, dont_block: true });
    const res = await fetch(`${server.processUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    expect(text).toContain('rookery_http_requests_total{method="GET",route="/api/v1/users/me",status="200"} 2');
    expect(text).toMatch(/rookery_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/messages"\} 1\n/);
    expect(text).toMatch(/rookery_event_queues \d+/);
    expect(text).toContain("rookery_long_polls_waiting 0");
    expect(Number(/rookery_events_delivered_total (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/rookery_db_write_seconds_count (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    expect(text).toContain("rookery_process_resident_memory_bytes");
  });

  it("keeps unknown URLs under one label, so a scan cannot grow the label set", async () => {
    for (const path of ["/nope/1", "/nope/2", "/api/v1/nope"]) await fetch(`${server.processUrl}${path}`);
    const text = await (await fetch(`${server.processUrl}/metrics`)).text();
    expect(text).toContain('rookery_http_requests_total{method="GET",route="(unmatched)",status="404"} 3');
    expect(text).not.toContain("/nope");
  });
});
