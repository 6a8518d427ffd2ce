import fs from "node:fs";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.js";
import { error, success } from "../../harness/client.js";
import { Browser } from "../../harness/browser.js";
import { startServer } from "../../harness/server.js";
import { serveFakeWebApp } from "../../harness/web-server.js";
import { singleProcess } from "../../harness/single-process.js";

const NOT_LOGGED_IN = error("Not logged in: API authentication or user session required", "UNAUTHORIZED");

const site = serveFakeWebApp();

async function signedIn(email: string, password = site.server.password): Promise<Browser> {
  const browser = new Browser(site.server.url);
  await browser.signIn(email, password);
  return browser;
}

describe("the event queue through /json", () => {
  it("registers and long-polls with the cookie alone; a waiting poll gets the event", async () => {
    const hamlet = await signedIn("hamlet@zulip.com");
    const reg = await hamlet.json("POST", "/register", { event_types: ["typing"], fetch_event_types: ["realm_user"], apply_markdown: true, client_gravatar: false, slim_presence: true });
    expect(reg.status).toBe(200);
    expect(reg.body.queue_id).toEqual(expect.any(String));
    const poll = hamlet.json("GET", "/events", { queue_id: reg.body.queue_id, last_event_id: -1 });
    await new Promise((r) => setTimeout(r, 50));
    await site.server.as("cordelia").post("/typing", { op: "start", to: [site.server.users.hamlet.id] });
    const res = await poll;
    expect(res.status).toBe(200);
    expect(res.body.events).toMatchObject([{ type: "typing", op: "start", id: 0 }]);
    const deleted = await hamlet.json("DELETE", "/events", { queue_id: reg.body.queue_id });
    expect(deleted.body).toEqual(success());
  });

  it("refuses to register without the CSRF token", async () => {
    const hamlet = await signedIn("hamlet@zulip.com");
    const res = await hamlet.json("POST", "/register", {}, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(error("CSRF error: CSRF token missing.", "CSRF_FAILED", { reason: "CSRF token missing." }));
  });
});

describe("sessions end", () => {
  it("on a password change: every other session of the user, not the one that changed it, nor API keys", async () => {
    const changer = await signedIn("othello@zulip.com");
    const other = await signedIn("othello@zulip.com");
    const bystander = await signedIn("hamlet@zulip.com");
    const res = await changer.json("PATCH", "/settings", { old_password: site.server.password, new_password: "a-new-password-456" });
    expect(res.status).toBe(200);
    try {
      expect((await changer.json("GET", "/users/me")).status).toBe(200);
      const refused = await other.json("GET", "/users/me");
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(NOT_LOGGED_IN);
      expect((await bystander.json("GET", "/users/me")).status).toBe(200);
      expect((await site.server.as("othello").get("/users/me")).status).toBe(200);
      expect((await new Browser(site.server.url).login("othello@zulip.com", site.server.password)).status).toBe(200);
      expect((await new Browser(site.server.url).login("othello@zulip.com", "a-new-password-456")).status).toBe(302);
    } finally {
      await site.server.as("othello").patch("/settings", { old_password: "a-new-password-456", new_password: site.server.password });
    }
  });

  it("everywhere at once: every process refuses the cookie as soon as the logout answers (caches warmed first)", async () => {
    const browser = await signedIn("iago@zulip.com");
    const stolen = browser.clone();
    // Round robin: in cluster mode these reach every process, so each has the session cached.
    for (let i = 0; i < 6; i++) expect((await stolen.json("GET", "/users/me")).status).toBe(200);
    await browser.fetch("POST", "/accounts/logout/", { headers: { "x-csrftoken": browser.csrfToken ?? "" } });
    for (let i = 0; i < 6; i++) {
      const res = await stolen.json("GET", "/users/me");
      expect(res.status, `call ${i}`).toBe(401);
      expect(res.body).toEqual(NOT_LOGGED_IN);
    }
  });

  it("on a password change through the API: every session", async () => {
    const browser = await signedIn("cordelia@zulip.com");
    await site.server.as("cordelia").patch("/settings", { old_password: site.server.password, new_password: "another-password-789" });
    try {
      expect((await browser.json("GET", "/users/me")).status).toBe(401);
    } finally {
      await site.server.as("cordelia").patch("/settings", { old_password: "another-password-789", new_password: site.server.password });
    }
  });

  it("on deactivation: the next /json call is a 401, the page goes to login, and a waiting long-poll ends", async () => {
    const target = site.server.users.shiva;
    const browser = await signedIn(target.delivery_email);
    const reg = await browser.json("POST", "/register", { event_types: ["message"] });
    const poll = browser.json("GET", "/events", { queue_id: reg.body.queue_id, last_event_id: -1 });
    await new Promise((r) => setTimeout(r, 50));
    expect((await site.server.as("iago").delete(`/users/${target.id}`)).status).toBe(200);
    try {
      const ended = await poll;
      expect(ended.status).toBe(400);
      expect(ended.body).toEqual(error(`Bad event queue ID: ${reg.body.queue_id}`, "BAD_EVENT_QUEUE_ID", { queue_id: reg.body.queue_id }));
      const next = await browser.json("GET", "/users/me");
      expect(next.status).toBe(401);
      expect(next.body).toEqual(NOT_LOGGED_IN);
      expect((await browser.json("POST", "/register", {})).status).toBe(401);
      expect((await browser.get("/")).headers.get("location")).toBe("/login/");
    } finally {
      await site.server.as("iago").post(`/users/${target.id}/reactivate`);
    }
    // Reactivation does not bring the old session back.
    expect((await browser.json("GET", "/users/me")).status).toBe(401);
  });

  it("on deactivating one's own account", async () => {
    const target = site.server.users.polonius;
    const browser = await signedIn(target.delivery_email);
    expect((await browser.json("DELETE", "/users/me")).status).toBe(200);
    try {
      expect((await browser.json("GET", "/users/me")).body).toEqual(NOT_LOGGED_IN);
    } finally {
      await site.server.as("iago").post(`/users/${target.id}/reactivate`);
    }
  });

  it("when the organisation is deactivated: 401 with Zulip's message", async () => {
    const browser = await signedIn("iago@zulip.com");
    await site.server.app.ctx.store.write((tx) => tx.updateTable("realm").set({ deactivated: 1 }).execute());
    site.server.app.ctx.realms.forgetAll();
    try {
      const res = await browser.json("GET", "/users/me");
      expect(res.status).toBe(401);
      expect(res.body).toEqual(error("This organization has been deactivated", "UNAUTHORIZED"));
      expect(res.headers.get("www-authenticate")).toBe('Session realm="zulip"');
      expect((await browser.get("/")).headers.get("location")).toBe("/login/");
    } finally {
      await site.server.app.ctx.store.write((tx) => tx.updateTable("realm").set({ deactivated: 0 }).execute());
      site.server.app.ctx.realms.forgetAll();
    }
  });
});

describe("a session across a restart", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  singleProcess("restarting the test server's one process (test/cluster restarts cluster members)")("survives it: the same cookie and CSRF token work on the new process", async () => {
    const own = await startServer({ webDir: site.webDir });
    const browser = new Browser(own.url);
    await browser.signIn("hamlet@zulip.com", own.password);
    await own.app.close();
    const app = await buildApp(own.app.ctx.config, { clock: own.clock, logger: pino({ level: "silent" }) });
    const url = await app.http.listen({ host: "127.0.0.1", port: 0 });
    cleanups.push(async () => {
      await app.close();
      fs.rmSync(own.dataDir, { recursive: true, force: true });
    });
    const after = new Browser(url);
    after.session = browser.session;
    after.csrfToken = browser.csrfToken;
    expect((await after.json("GET", "/users/me")).body.user_id).toBe(own.users.hamlet.id);
    expect((await after.json("POST", "/users/me/status", { status_text: "back" })).status).toBe(200);
  });
});
