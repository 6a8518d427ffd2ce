import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
let limited: TestServer;
beforeAll(async () => {
  server = await startServer();
  limited = await startServer({ rateLimitPerMinute: 3 });
});
afterAll(async () => {
  await server.stop();
  await limited.stop();
});

describe("routing", () => {
  it("answers an unknown API path with Zulip's 404 JSON", async () => {
    const res = await server.as("hamlet").get("/no/such/endpoint", {}, { validate: false });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(error("Not Found"));
  });

  it("answers a wrong method with 405, allowed_methods and no code", async () => {
    const res = await server.as("hamlet").request("PUT", "/users/me", {}, { validate: false });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ result: "error", msg: "Method Not Allowed", allowed_methods: ["DELETE", "GET", "HEAD"] });
    expect(res.headers.get("allow")).toBe("DELETE, GET, HEAD");
  });

  it("answers OPTIONS with 204 and the Allow header", async () => {
    const res = await server.anonymous().request("OPTIONS", "/users", {}, { validate: false });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(res.text).toBe("");
  });

  it("answers HEAD like GET without a body", async () => {
    const res = await server.as("hamlet").request("HEAD", "/users/me", {}, { validate: false });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
  });

  it("ends JSON bodies with a newline, as Zulip does", async () => {
    const res = await server.as("hamlet").get("/users/me");
    expect(res.text.endsWith("}\n")).toBe(true);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("parameters", () => {
  it("reads POST parameters from the query string when the body lacks them", async () => {
    const res = await server.anonymous().request("POST", `/fetch_api_key?username=hamlet@zulip.com&password=${server.password}`, {});
    expect(res.body.api_key).toBe(server.users.hamlet.api_key);
  });

  it("reads PATCH and DELETE bodies, form-encoded and multipart", async () => {
    const iago = server.as("iago");
    const form = await iago.patch(`/users/${server.users.cordelia.id}`, { full_name: "Cordelia Lear" });
    expect(form.status).toBe(200);
    const multipart = await iago.patch(`/users/${server.users.cordelia.id}`, { full_name: "Cordelia, Lear's daughter" }, { encoding: "multipart" });
    expect(multipart.status).toBe(200);
    const me = await server.as("cordelia").get("/users/me");
    expect(me.body.full_name).toBe("Cordelia, Lear's daughter");
  });

  it("ignores a JSON body: parameters come only from forms and the query string", async () => {
    const res = await server.anonymous().request("POST", "/fetch_api_key", {}, {
      headers: { "content-type": "application/json" },
    });
    expect(res.body).toEqual(error("Missing 'username' argument", "REQUEST_VARIABLE_MISSING", { var_name: "username" }));
  });

  it("decodes integers strictly", async () => {
    const iago = server.as("iago");
    for (const [role, msg] of [
      ["abc", "role is not valid JSON"],
      ['"400"', "Invalid role"],
      ["500", "Invalid role"],
    ] as const) {
      const res = await iago.patch(`/users/${server.users.othello.id}`, { role });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error(msg));
    }
  });

  it("reports unknown parameters sorted, on success only", async () => {
    const ok = await server.as("hamlet").get("/users", { zeta: "1", alpha: "2" });
    expect(ok.body.ignored_parameters_unsupported).toEqual(["alpha", "zeta"]);
    const failed = await server.as("hamlet").get("/users", { zeta: "1", client_gravatar: "x" });
    expect(failed.body).toEqual(error("client_gravatar is not valid JSON"));
  });
});

describe("rate limiting", () => {
  it("counts calls per user with X-RateLimit headers, then answers 429", async () => {
    const client = limited.as("hamlet");
    const first = await client.get("/users/me");
    expect(first.headers.get("x-ratelimit-limit")).toBe("3");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("2");
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBe(Math.ceil(limited.clock.now() / 1000) + 60);
    await client.get("/users/me");
    await client.get("/users/me");
    const refused = await client.get("/users/me");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(error("API usage exceeded rate limit", "RATE_LIMIT_HIT", { "retry-after": 60 }));
    expect(refused.headers.get("retry-after")).toBe("60");
    const other = await limited.as("othello").get("/users/me");
    expect(other.status).toBe(200);
    limited.clock.advance(61);
    const again = await client.get("/users/me");
    expect(again.status).toBe(200);
  });

  it("does not count event polling: a client polling per event keeps its whole budget", async () => {
    limited.clock.advance(61);
    const client = limited.as("cordelia");
    const registered = await client.post("/register", { event_types: ["message"] });
    expect(registered.headers.get("x-ratelimit-remaining")).toBe("2");
    for (let i = 0; i < 10; i++) {
      const poll = await client.get("/events", { queue_id: registered.body.queue_id, last_event_id: -1, dont_block: true });
      expect(poll.status).toBe(200);
      expect(poll.headers.get("x-ratelimit-remaining")).toBeNull();
    }
    const me = await client.get("/users/me");
    expect(me.status).toBe(200);
    expect(me.headers.get("x-ratelimit-remaining")).toBe("1");
    const deleted = await client.delete("/events", { queue_id: registered.body.queue_id });
    expect(deleted.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});

describe("failures", () => {
  it("answers an unexpected error with a bare 500 that leaks nothing", async () => {
    const broken = await startServer();
    await broken.app.ctx.store.close();
    const res = await broken.as("hamlet").get("/users", {}, { validate: false });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ result: "error", msg: "Internal server error" });
    await broken.stop();
  });

  it("answers 401 for every user of a deactivated organisation", async () => {
    const other = await startServer();
    await other.app.ctx.store.write((tx) => tx.updateTable("realm").set({ deactivated: 1 }).execute());
    other.app.ctx.realms.forget(other.users.hamlet.realm_id);
    const res = await other.as("hamlet").get("/users/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(error("This organization has been deactivated", "UNAUTHORIZED"));
    await other.stop();
  });
});
