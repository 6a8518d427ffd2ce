import { describe, expect, it } from "vitest";
import { Browser, FAKE_MANIFEST } from "../../harness/browser.js";
import { startServer } from "../../harness/server.js";
import { serveFakeWebApp } from "../../harness/web-server.js";

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const INVALID = "Please enter a correct email and password. Note that both fields may be case-sensitive.";

const site = serveFakeWebApp();

/** The error the login form shows, or undefined. */
function formError(html: string): string | undefined {
  const raw = /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];
  return raw?.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

describe("the login page", () => {
  it("is a form at /login/ and /accounts/login/, not cached, with the CSP and the auth stylesheet", async () => {
    for (const url of ["/login/", "/accounts/login/"]) {
      const res = await new Browser(site.server.url).get(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-security-policy")).toBe(CSP);
      expect(res.text).toContain("<title>Log in to Zulip Dev</title>");
      expect(res.text).toContain(`<link rel="stylesheet" href="/static/${FAKE_MANIFEST["auth.css"]}">`);
      expect(res.text).toContain('<form method="post" action="/login/">');
      expect(res.text).toContain('name="username"');
      expect(res.text).toContain('name="password"');
      expect(res.text).toContain('<a href="/accounts/password/reset/">');
      // One script, from a file: it keeps the page's #fragment in `next` (no inline script under the CSP).
      expect(res.text.match(/<script[^>]*>/g)).toEqual(['<script src="/login/keep-fragment.js" defer>']);
    }
  });

  it("redirects the addresses without a slash, keeping the query", async () => {
    const res = await new Browser(site.server.url).get("/login?next=%2F%23x");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/login/?next=%2F%23x");
    expect((await new Browser(site.server.url).get("/accounts/login")).headers.get("location")).toBe("/accounts/login/");
  });

  it("sends a browser that is signed in on to the app", async () => {
    const browser = new Browser(site.server.url);
    await browser.signIn("hamlet@zulip.com", site.server.password);
    const res = await browser.get("/login/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });
});

describe("signing in", () => {
  it("sets an HttpOnly, SameSite=Lax session cookie for the whole site and goes to the app", async () => {
    const browser = new Browser(site.server.url);
    const res = await browser.login("hamlet@zulip.com", site.server.password);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const cookies = res.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^rookery_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=1209600$/);
    const me = await browser.json("GET", "/users/me");
    expect(me.status).toBe(200);
    expect(me.body.user_id).toBe(site.server.users.hamlet.id);
  });

  it("accepts the address in another case and with spaces around it", async () => {
    const browser = new Browser(site.server.url);
    expect((await browser.login("  Othello@Zulip.COM ", site.server.password)).status).toBe(302);
    expect((await browser.json("GET", "/users/me")).body.user_id).toBe(site.server.users.othello.id);
  });

  it("goes to `next` when it is a path of this site, and to the app otherwise", async () => {
    const cases: [string, string][] = [
      ["/#narrow/channel/1-general", "/#narrow/channel/1-general"],
      ["/help/", "/help/"],
      ["//evil.example/", "/"],
      ["https://evil.example/", "/"],
      ["/\\evil.example", "/"],
      ["/api/v1/users/me", "/"],
      ["/json/users/me", "/"],
    ];
    for (const [next, location] of cases) {
      const res = await new Browser(site.server.url).login("hamlet@zulip.com", site.server.password, next);
      expect(res.headers.get("location"), next).toBe(location);
    }
  });

  it("serves the script that keeps the page's #fragment in `next`", async () => {
    const res = await new Browser(site.server.url).get("/login/keep-fragment.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.text).toContain("location.hash");
  });

  it("keeps `next` from the page's address in the form", async () => {
    const res = await new Browser(site.server.url).get("/login/?next=%2F%23narrow%2Fdm%2F8-x");
    expect(res.text).toContain('<input type="hidden" name="next" value="/#narrow/dm/8-x">');
  });

  it("marks the cookie Secure when the external URL is https", async () => {
    const secure = await startServer({ webDir: site.webDir, externalUrl: "https://chat.example.com" });
    try {
      const res = await new Browser(secure.url).login("hamlet@zulip.com", secure.password);
      expect(res.headers.getSetCookie()[0]).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=1209600$/);
    } finally {
      await secure.stop();
    }
  });

  it("refuses a wrong password, an unknown address and empty fields with Zulip's texts, keeping the address", async () => {
    const wrong = await new Browser(site.server.url).login("cordelia@zulip.com", "not-the-password");
    expect(wrong.status).toBe(200);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    expect(formError(wrong.text)).toBe(INVALID);
    expect(wrong.text).toContain('value="cordelia@zulip.com"');
    expect(formError((await new Browser(site.server.url).login("nobody@zulip.com", site.server.password)).text)).toBe(INVALID);
    expect(formError((await new Browser(site.server.url).login("", site.server.password)).text)).toBe("This field is required.");
    expect(formError((await new Browser(site.server.url).login("cordelia@zulip.com", "")).text)).toBe("This field is required.");
  });

  it("escapes the address it shows again", async () => {
    const res = await new Browser(site.server.url).login('"><script>alert(1)</script>@zulip.com', "x");
    expect(res.text).not.toContain("<script>");
    expect(res.text).toContain("value=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@zulip.com\"");
  });

  it("limits attempts per address as POST /fetch_api_key does: 5 per 30 minutes, shared by both", async () => {
    const email = "shiva@zulip.com";
    for (let i = 0; i < 4; i++) expect(formError((await new Browser(site.server.url).login(email, `wrong-${i}`)).text)).toBe(INVALID);
    const api = await site.server.anonymous().post("/fetch_api_key", { username: email, password: "wrong-api" });
    expect(api.status).toBe(401);
    const limited = await new Browser(site.server.url).login(email, site.server.password);
    expect(limited.status).toBe(200);
    expect(limited.headers.getSetCookie()).toEqual([]);
    expect(formError(limited.text)).toBe("You're making too many attempts to sign in. Try again in 1800 seconds or contact your organization administrator for help.");
    site.server.clock.advance(1801);
    expect((await new Browser(site.server.url).login(email, site.server.password)).status).toBe(302);
  });

  it("tells a deactivated user so, once the password is right", async () => {
    const target = site.server.users.polonius;
    expect((await site.server.as("iago").delete(`/users/${target.id}`)).status).toBe(200);
    try {
      expect(formError((await new Browser(site.server.url).login(target.delivery_email, "wrong")).text)).toBe(INVALID);
      const res = await new Browser(site.server.url).login(target.delivery_email, site.server.password);
      expect(formError(res.text)).toBe(`Your account ${target.delivery_email} has been deactivated. Please contact your organization administrator to reactivate it.`);
      expect(res.headers.getSetCookie()).toEqual([]);
    } finally {
      await site.server.as("iago").post(`/users/${target.id}/reactivate`);
    }
  });

  it("refuses a login form posted from another site", async () => {
    const browser = new Browser(site.server.url);
    const res = await browser.fetch("POST", "/login/", { form: { username: "hamlet@zulip.com", password: site.server.password }, headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(res.text).toContain("CSRF error: Origin checking failed - https://evil.example does not match any trusted origins.");
    expect(res.headers.get("content-security-policy")).toBe(CSP);
    expect(browser.session).toBeUndefined();
  });
});

describe("POST /accounts/logout/", () => {
  it("ends the session: the old cookie is refused afterwards", async () => {
    const browser = new Browser(site.server.url);
    await browser.signIn("hamlet@zulip.com", site.server.password);
    const stolen = browser.clone();
    const res = await browser.fetch("POST", "/accounts/logout/", { headers: { "x-csrftoken": browser.csrfToken ?? "", origin: site.server.url } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login/");
    expect(res.headers.getSetCookie()).toEqual(["rookery_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"]);
    expect(browser.session).toBeUndefined();
    const again = await stolen.json("GET", "/users/me");
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ result: "error", msg: "Not logged in: API authentication or user session required", code: "UNAUTHORIZED" });
    expect((await stolen.get("/")).headers.get("location")).toBe("/login/");
  });

  it("takes the token as a form field too", async () => {
    const browser = new Browser(site.server.url);
    await browser.signIn("hamlet@zulip.com", site.server.password);
    const stolen = browser.clone();
    const res = await browser.fetch("POST", "/accounts/logout/", { form: { csrfmiddlewaretoken: browser.csrfToken ?? "" } });
    expect(res.status).toBe(302);
    expect((await stolen.json("GET", "/users/me")).status).toBe(401);
  });

  it("refuses a logout without the CSRF token, and the session stays", async () => {
    const browser = new Browser(site.server.url);
    await browser.signIn("hamlet@zulip.com", site.server.password);
    const res = await browser.fetch("POST", "/accounts/logout/", { form: {} });
    expect(res.status).toBe(403);
    expect(res.text).toContain("CSRF error: CSRF token missing.");
    expect((await browser.json("GET", "/users/me")).status).toBe(200);
  });

  it("ends only that browser's session", async () => {
    const first = new Browser(site.server.url);
    const second = new Browser(site.server.url);
    await first.signIn("hamlet@zulip.com", site.server.password);
    await second.signIn("hamlet@zulip.com", site.server.password);
    await first.fetch("POST", "/accounts/logout/", { headers: { "x-csrftoken": first.csrfToken ?? "" } });
    expect((await second.json("GET", "/users/me")).status).toBe(200);
  });

  it("sends a browser without a session to the login page", async () => {
    const res = await new Browser(site.server.url).fetch("POST", "/accounts/logout/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login/");
  });
});
