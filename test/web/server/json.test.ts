import { beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { error, success } from "../../harness/client.js";
import { Browser } from "../../harness/browser.js";
import { serveFakeWebApp } from "../../harness/web-server.js";
import { createChannels } from "../../api/messages-fixtures.js";

const NOT_LOGGED_IN = error("Not logged in: API authentication or user session required", "UNAUTHORIZED");

const site = serveFakeWebApp();
let hamlet: Browser;
beforeAll(async () => {
  await createChannels(site.server);
  hamlet = new Browser(site.server.url);
  await hamlet.signIn("hamlet@zulip.com", site.server.password);
});

function csrfError(reason: string): Record<string, unknown> {
  return error(`CSRF error: ${reason}`, "CSRF_FAILED", { reason });
}

describe("/json without a session", () => {
  it("answers 401 asking for session authentication, never Basic", async () => {
    const res = await new Browser(site.server.url).json("GET", "/users/me");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Session realm="zulip"');
    expect(res.body).toEqual(NOT_LOGGED_IN);
    const post = await new Browser(site.server.url).json("POST", "/messages", { type: "stream", to: "Verona", topic: "x", content: "x" });
    expect(post.status).toBe(401);
    expect(post.body).toEqual(NOT_LOGGED_IN);
  });

  it("refuses a cookie that names no session, or is malformed", async () => {
    for (const cookie of ["rookery_session=" + "A".repeat(43), "rookery_session=short", "rookery_session="]) {
      const res = await new Browser(site.server.url).get("/json/users/me", { cookie });
      expect(res.status, cookie).toBe(401);
      expect(res.body).toEqual(NOT_LOGGED_IN);
    }
  });

  it("sends a page opened in a browser to the login page", async () => {
    const res = await new Browser(site.server.url).get("/json/users/me", { accept: "text/html,application/xhtml+xml" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login/?next=%2Fjson%2Fusers%2Fme");
  });

  it("accepts HTTP Basic, as Zulip does", async () => {
    const res = await site.server.anonymous().get("/users/me", {}, { headers: { authorization: "Basic " + Buffer.from(`hamlet@zulip.com:${site.server.users.hamlet.api_key}`).toString("base64") } });
    expect(res.status).toBe(200);
    const viaJson = await new Browser(site.server.url).get("/json/users/me", { authorization: "Basic " + Buffer.from(`hamlet@zulip.com:${site.server.users.hamlet.api_key}`).toString("base64") });
    expect(viaJson.status).toBe(200);
    expect(viaJson.body.user_id).toBe(site.server.users.hamlet.id);
  });
});

describe("/api/v1 opened in a browser", () => {
  it("redirects to the login page instead of asking for a Basic password", async () => {
    const res = await new Browser(site.server.url).get("/api/v1/users/me", { accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login/?next=%2Fapi%2Fv1%2Fusers%2Fme");
    expect(res.headers.get("www-authenticate")).toBeNull();
  });

  it("does not take the session cookie: /api/v1 is for API keys", async () => {
    const res = await hamlet.get("/api/v1/users/me");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="zulip"');
  });
});

describe("/json with a session", () => {
  it("serves every /api/v1 endpoint with the same handlers", async () => {
    const me = await hamlet.json("GET", "/users/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject(success({ user_id: site.server.users.hamlet.id, email: "hamlet@zulip.com" }));
    const sent = await hamlet.json("POST", "/messages", { type: "stream", to: "Verona", topic: "web", content: "from the browser" });
    expect(sent.body).toMatchObject(success());
    const fetched = await hamlet.json("GET", "/messages", { anchor: sent.body.id, num_before: 0, num_after: 0 });
    expect(fetched.body.messages[0].content).toBe("<p>from the browser</p>");
    const edited = await hamlet.json("PATCH", `/messages/${sent.body.id}`, { content: "edited" });
    expect(edited.body.result).toBe("success");
    const deleted = await hamlet.json("DELETE", `/messages/${sent.body.id}`);
    expect(deleted.status).toBe(200);
  });

  it("answers OPTIONS and 405 as /api/v1 does", async () => {
    const options = await hamlet.fetch("OPTIONS", "/json/users/me");
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("DELETE, GET, HEAD");
    const wrong = await hamlet.fetch("PUT", "/json/users/me", { headers: { "x-csrftoken": hamlet.csrfToken ?? "" } });
    expect(wrong.status).toBe(405);
  });

  it("refuses a call that changes something without the CSRF token, with Django's reasons", async () => {
    const missing = await hamlet.json("POST", "/users/me/status", { status_text: "x" }, { csrf: false });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual(csrfError("CSRF token missing."));
    const wrong = await hamlet.json("POST", "/users/me/status", { status_text: "x" }, { csrf: false, headers: { "x-csrftoken": "a".repeat(32) } });
    expect(wrong.body).toEqual(csrfError("CSRF token from the 'X-Csrftoken' HTTP header incorrect."));
    const short = await hamlet.json("POST", "/users/me/status", { status_text: "x" }, { csrf: false, headers: { "x-csrftoken": "abc" } });
    expect(short.body).toEqual(csrfError("CSRF token from the 'X-Csrftoken' HTTP header has incorrect length."));
    const bad = await hamlet.json("POST", "/users/me/status", { status_text: "x" }, { csrf: false, headers: { "x-csrftoken": "!".repeat(32) } });
    expect(bad.body).toEqual(csrfError("CSRF token from the 'X-Csrftoken' HTTP header has invalid characters."));
    for (const [method, url] of [["PATCH", "/settings"], ["DELETE", "/users/me/subscriptions"]] as const) {
      const res = await hamlet.json(method, url, {}, { csrf: false });
      expect(res.status, method).toBe(403);
      expect(res.body, method).toEqual(csrfError("CSRF token missing."));
    }
    expect((await hamlet.json("GET", "/users/me/status")).status).not.toBe(403);
  });

  it("refuses a cross-site form post (form-encoded, no X-CSRFToken, another site's Origin)", async () => {
    const res = await hamlet.fetch("POST", "/json/messages", {
      form: { type: "stream", to: "Verona", topic: "csrf", content: "forged" },
      headers: { origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(csrfError("Origin checking failed - https://evil.example does not match any trusted origins."));
    const withToken = await hamlet.json("POST", "/messages", { type: "stream", to: "Verona", topic: "csrf", content: "forged" }, { headers: { origin: "null" } });
    expect(withToken.body).toEqual(csrfError("Origin checking failed - null does not match any trusted origins."));
    const history = await hamlet.json("GET", "/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "topic", operand: "csrf" }] });
    expect(history.body.messages).toEqual([]);
  });

  it("accepts the page's own Origin", async () => {
    const res = await hamlet.json("POST", "/users/me/status", { status_text: "here" }, { headers: { origin: site.server.url } });
    expect(res.status).toBe(200);
  });

  it("uploads a file (multipart) and serves it by the cookie alone", async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#3366cc" } }).png().toBuffer();
    const res = await hamlet.json("POST", "/user_uploads", {}, { files: [{ field: "file", filename: "blue.png", type: "image/png", data: png }] });
    expect(res.status).toBe(200);
    const url: string = res.body.url;
    expect(url).toMatch(/^\/user_uploads\/\d+\/.+\/blue\.png$/);
    const file = await hamlet.get(url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    const stranger = await new Browser(site.server.url).get(url);
    expect(stranger.status).toBe(403);
    const noToken = await hamlet.json("POST", "/user_uploads", {}, { csrf: false, files: [{ field: "file", filename: "x.txt", type: "text/plain", data: Buffer.from("x") }] });
    expect(noToken.status).toBe(403);
    expect(noToken.body).toEqual(csrfError("CSRF token missing."));
  });

  it("serves thumbnails of uploaded images by the cookie", async () => {
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#cc3366" } }).png().toBuffer();
    const res = await hamlet.json("POST", "/user_uploads", {}, { files: [{ field: "file", filename: "pink.png", type: "image/png", data: png }] });
    const pathId = (res.body.url as string).slice("/user_uploads/".length);
    await hamlet.json("POST", "/messages", { type: "stream", to: "Verona", topic: "thumbs", content: `[pink.png](${res.body.url})` });
    await Promise.all(site.server.apps.map((app) => app.ctx.thumbnails.idle()));
    const thumb = await hamlet.get(`/user_uploads/thumbnail/${pathId}/840x560.webp`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toMatch(/^image\//);
    expect((await new Browser(site.server.url).get(`/user_uploads/thumbnail/${pathId}/840x560.webp`)).status).toBe(403);
  });

  it("redirects /avatar/{user_id} to the avatar, for a signed-in browser", async () => {
    const res = await hamlet.get(`/avatar/${site.server.users.othello.id}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
    const medium = await hamlet.get(`/avatar/${site.server.users.othello.id}/medium`);
    expect(medium.headers.get("location")).toMatch(/\?d=identicon&s=500&version=1$/);
    expect((await hamlet.get("/avatar/999999")).status).toBe(404);
    const anonymous = await new Browser(site.server.url).get(`/avatar/${site.server.users.othello.id}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(NOT_LOGGED_IN);
  });
});
