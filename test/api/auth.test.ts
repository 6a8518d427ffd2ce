import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function getMe(authorization?: string) {
  return server.anonymous().get("/users/me", {}, { headers: authorization === undefined ? {} : { authorization } });
}

function basic(user: string, key: string): string {
  return "Basic " + Buffer.from(`${user}:${key}`).toString("base64");
}

describe("HTTP Basic authentication", () => {
  it("answers 401 with the Basic challenge when there are no credentials", async () => {
    const res = await getMe();
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="zulip"');
    expect(res.body).toEqual(error("Not logged in: API authentication or user session required", "UNAUTHORIZED"));
  });

  it("refuses a header that is not two words", async () => {
    const res = await getMe("Basic");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(error("Invalid authorization header for basic auth", "UNAUTHORIZED"));
  });

  it("refuses a scheme other than Basic with a 400", async () => {
    const res = await getMe("Bearer abc");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("This endpoint requires HTTP basic authentication."));
  });

  it("refuses credentials without exactly one colon", async () => {
    const res = await getMe("Basic " + Buffer.from("no-colon-here").toString("base64"));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(error("Invalid authorization header for basic auth", "UNAUTHORIZED"));
  });

  it("refuses a malformed API key", async () => {
    for (const key of ["short", "a".repeat(33), "a".repeat(31) + "-"]) {
      const res = await getMe(basic("hamlet@zulip.com", key));
      expect(res.status).toBe(401);
      expect(res.body).toEqual(error("Malformed API key", "UNAUTHORIZED"));
    }
  });

  it("refuses an unknown key and a key of another user", async () => {
    const unknown = await getMe(basic("hamlet@zulip.com", "a".repeat(32)));
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(error("Invalid API key", "UNAUTHORIZED"));
    const otherUser = await getMe(basic("othello@zulip.com", server.users.hamlet.api_key));
    expect(otherUser.body).toEqual(error("Invalid API key", "UNAUTHORIZED"));
  });

  it("accepts the email in any case and surrounding spaces", async () => {
    const res = await getMe(basic(" HAMLET@zulip.com ", server.users.hamlet.api_key));
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(server.users.hamlet.id);
  });
});

describe("GET /server_settings", () => {
  it("needs no credentials and reports version and realm", async () => {
    const res = await server.anonymous().get("/server_settings");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(
      success({
        zulip_version: "9.0",
        zulip_feature_level: 277,
        push_notifications_enabled: false,
        is_incompatible: false,
        email_auth_enabled: true,
        require_email_format_usernames: true,
        realm_name: "Zulip Dev",
        realm_url: server.app.ctx.config.externalUrl,
        realm_uri: server.app.ctx.config.externalUrl,
        external_authentication_methods: [],
      }),
    );
    expect(res.body.authentication_methods).toMatchObject({ password: true, email: true, ldap: false });
  });
});

describe("POST /fetch_api_key", () => {
  it("returns the key for the right password", async () => {
    const res = await server.anonymous().post("/fetch_api_key", { username: "hamlet@zulip.com", password: server.password });
    expect(res.body).toEqual(success({ api_key: server.users.hamlet.api_key, email: "hamlet@zulip.com", user_id: server.users.hamlet.id }));
  });

  it("accepts multipart bodies, as zulip-js sends them", async () => {
    const res = await server.anonymous().post("/fetch_api_key", { username: "othello@zulip.com", password: server.password }, { encoding: "multipart" });
    expect(res.body.api_key).toBe(server.users.othello.api_key);
  });

  it("refuses a wrong password or unknown user with 401", async () => {
    for (const username of ["hamlet@zulip.com", "nobody@zulip.com"]) {
      const res = await server.anonymous().post("/fetch_api_key", { username, password: "wrong" });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(error("Your username or password is incorrect", "AUTHENTICATION_FAILED"));
    }
  });

  it("names the missing argument", async () => {
    const res = await server.anonymous().post("/fetch_api_key", { username: "hamlet@zulip.com" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Missing 'password' argument", "REQUEST_VARIABLE_MISSING", { var_name: "password" }));
  });

  it("refuses a username that is not an email address", async () => {
    const res = await server.anonymous().post("/fetch_api_key", { username: "hamlet", password: "x" });
    expect(res.body).toEqual(error("Enter a valid email address."));
  });
});

describe("POST /users/me/api_key/regenerate", () => {
  it("returns a new 32-character key; the old one stops working", async () => {
    const old = server.as("cordelia");
    const res = await old.post("/users/me/api_key/regenerate");
    expect(res.status).toBe(200);
    expect(res.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.body.api_key).not.toBe(server.users.cordelia.api_key);
    const stale = await old.get("/users/me");
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual(error("Invalid API key", "UNAUTHORIZED"));
    const fresh = await new Client(server.url, { email: "cordelia@zulip.com", apiKey: res.body.api_key }).get("/users/me");
    expect(fresh.body.user_id).toBe(server.users.cordelia.id);
  });
});
