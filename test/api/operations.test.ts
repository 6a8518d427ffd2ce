import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { singleProcess } from "../harness/single-process.js";

/** Metrics are each process's own (every process is scraped on its own address), not the load balancer's. */
const oneProcess = singleProcess("GET /metrics reports the counters of the process that answers; through a round-robin proxy the requests counted are spread over three");

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
  oneProcess("counts requests per route and status, and reports queues, polls and events in Prometheus' text format", async () => {
    const registered = await server.as("hamlet").post("/register", { event_types: ["message"] });
    await server.as("hamlet").get("/users/me");
    await server.as("hamlet").get("/users/me");
    const sent = await server.as("othello").post("/messages", { type: "private", to: JSON.stringify([server.users.hamlet.id]), content: "counted" });
    expect(sent.status).toBe(200);
    await server.as("hamlet").get("/events", { queue_id: registered.body.queue_id, last_event_id: -1, dont_block: true });
    const res = await fetch(`${server.url}/metrics`);
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

  oneProcess("keeps unknown URLs under one label, so a scan cannot grow the label set", async () => {
    for (const path of ["/nope/1", "/nope/2", "/api/v1/nope"]) await fetch(`${server.url}${path}`);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toContain('rookery_http_requests_total{method="GET",route="(unmatched)",status="404"} 3');
    expect(text).not.toContain("/nope");
  });
});
