import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { Browser, FAKE_APP_JS, FAKE_MANIFEST } from "../../harness/browser.js";
import { startServer } from "../../harness/server.js";
import { serveFakeWebApp } from "../../harness/web-server.js";

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const IMMUTABLE = "public, max-age=31536000, immutable";

const site = serveFakeWebApp();

describe("GET /", () => {
  it("is the app page for a signed-in browser: realm name, CSRF token, hashed files, not cached, CSP", async () => {
    const browser = new Browser(site.server.url);
    expect((await browser.login("hamlet@zulip.com", site.server.password)).status).toBe(302);
    const res = await browser.loadApp();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toBe(CSP);
    expect(browser.csrfToken).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.text).toBe(
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>Zulip Dev</title><meta name="csrf-token" content="${browser.csrfToken}"><meta name="rookery-home-view" content="inbox"><link rel="icon" href="/static/${FAKE_MANIFEST["favicon.svg"]}">` +
        `<link rel="stylesheet" href="/static/${FAKE_MANIFEST["app.css"]}"><script type="module" src="/static/${FAKE_MANIFEST["app.js"]}"></script></head>` +
        `<body><div id="app"></div></body></html>`,
    );
  });

  it("names boot.js (defer, first: it runs before the app.js module) and app.js's chunks (for app.js to preload) when the build has them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-web-boot-"));
    fs.cpSync(site.webDir, dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ ...FAKE_MANIFEST, "boot.js": "boot-ABCD1234.js", "app.js.import.1": "chunk-EFGH5678.js" }));
    const server = await startServer({ webDir: dir });
    try {
      const browser = new Browser(server.url);
      await browser.signIn("hamlet@zulip.com", server.password);
      const text = (await browser.get("/")).text;
      expect(text).toContain(
        `<link rel="icon" href="/static/${FAKE_MANIFEST["favicon.svg"]}"><script defer src="/static/boot-ABCD1234.js"></script>` +
          `<link rel="stylesheet" href="/static/${FAKE_MANIFEST["app.css"]}"><script type="module" src="/static/${FAKE_MANIFEST["app.js"]}"></script>` +
          `<meta name="rookery-chunks" content="chunk-EFGH5678.js"></head>`,
      );
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("carries the Combined feed's first page, as GET /messages answers it, when that is the user's home view", async () => {
    const hamlet = site.server.as("hamlet");
    // A message whose text would close the block if "<" were written as it is.
    expect((await hamlet.post("/users/me/subscriptions", { subscriptions: [{ name: "Elsinore" }] })).status).toBe(200);
    const sent = await hamlet.post("/messages", { type: "stream", to: "Elsinore", topic: "</script><script>x()</script>", content: "A </script> in the text" });
    expect(sent.body).toMatchObject({ result: "success", msg: "" });
    const browser = new Browser(site.server.url);
    await browser.signIn("hamlet@zulip.com", site.server.password);
    expect((await browser.get("/")).text).not.toContain("rookery-first-page");
    expect((await hamlet.patch("/settings", { web_home_view: "all_messages" })).status).toBe(200);
    try {
      const text = (await browser.get("/")).text;
      expect(text).toContain(`<meta name="rookery-home-view" content="all_messages">`);
      const block = /<body><script type="application\/json" id="rookery-first-page">([^<]*)<\/script><div id="app"><\/div><\/body>/.exec(text);
      expect(block).not.toBeNull();
      const carried = JSON.parse(block?.[1] ?? "") as Record<string, unknown>;
      const asked = await hamlet.get("/messages", { narrow: "[]", anchor: "first_unread", num_before: 50, num_after: 50, apply_markdown: true, client_gravatar: false });
      expect(asked.status).toBe(200);
      expect(carried).toEqual(asked.body);
      expect((carried.messages as { id: number }[]).map((m) => m.id)).toContain(Number(sent.body.id));
    } finally {
      await hamlet.patch("/settings", { web_home_view: "inbox" });
    }
  });

  it("escapes the organisation's name", async () => {
    const owner = site.server.as("desdemona");
    expect((await owner.patch("/realm", { name: "<b>Tom & Jerry's</b>" })).status).toBe(200);
    try {
      const browser = new Browser(site.server.url);
      await browser.signIn("hamlet@zulip.com", site.server.password);
      expect((await browser.get("/")).text).toContain("<title>&lt;b&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;</title>");
    } finally {
      await owner.patch("/realm", { name: "Zulip Dev" });
    }
  });

  it("sends a browser without a session to the login page", async () => {
    const res = await new Browser(site.server.url).get("/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login/");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("keeps the same CSRF token for the session's life", async () => {
    const browser = new Browser(site.server.url);
    await browser.signIn("hamlet@zulip.com", site.server.password);
    const first = browser.csrfToken;
    await browser.loadApp();
    expect(browser.csrfToken).toBe(first);
    const other = new Browser(site.server.url);
    await other.signIn("hamlet@zulip.com", site.server.password);
    expect(other.csrfToken).not.toBe(first);
  });

  it("extends a session the browser comes back to after a day, and ends one left for two weeks", async () => {
    const browser = new Browser(site.server.url);
    await browser.signIn("cordelia@zulip.com", site.server.password);
    site.server.clock.advance(2 * 86_400);
    const res = await browser.get("/");
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()[0]).toMatch(/; Max-Age=1209600$/);
    site.server.clock.advance(13 * 86_400);
    expect((await browser.json("GET", "/users/me")).status).toBe(200);
    const idle = new Browser(site.server.url);
    await idle.signIn("cordelia@zulip.com", site.server.password);
    site.server.clock.advance(14 * 86_400);
    expect((await idle.json("GET", "/users/me")).status).toBe(401);
    expect((await idle.get("/")).headers.get("location")).toBe("/login/");
  });

  it("says the web app is not built when there is no manifest: 503", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-noweb-"));
    const bare = await startServer({ webDir: empty });
    try {
      const res = await new Browser(bare.url).get("/");
      expect(res.status).toBe(503);
      expect(res.headers.get("content-security-policy")).toBe(CSP);
      expect(res.text).toContain("<title>Rookery is not ready</title>");
      expect(res.text).toContain("The web app is not built: run <code>npm run build</code>, then reload this page.");
      // The login page still works, without its stylesheet.
      const login = await new Browser(bare.url).get("/login/");
      expect(login.status).toBe(200);
      expect(login.text).not.toContain("<link rel=\"stylesheet\"");
      expect((await new Browser(bare.url).get("/favicon.ico")).status).toBe(404);
      // Built while the site.server runs: picked up without a restart.
      fs.cpSync(site.webDir, empty, { recursive: true });
      const browser = new Browser(bare.url);
      await browser.signIn("hamlet@zulip.com", bare.password);
      expect((await browser.get("/")).status).toBe(200);
    } finally {
      await bare.stop();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("GET /static/…", () => {
  const script = `/static/${FAKE_MANIFEST["app.js"]}`;

  it("serves Brotli first, then gzip, by Accept-Encoding, cached for a year as immutable", async () => {
    const br = await fetch(site.server.url + script, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("cache-control")).toBe(IMMUTABLE);
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(br.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(br.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await br.text()).toBe(FAKE_APP_JS);
    const raw = await rawGet(script, "gzip");
    expect(raw.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(raw.body).toString()).toBe(FAKE_APP_JS);
    expect(Number(raw.headers["content-length"])).toBe(raw.body.length);
    const brRaw = await rawGet(script, "br;q=1, gzip;q=0.5");
    expect(zlib.brotliDecompressSync(brRaw.body).toString()).toBe(FAKE_APP_JS);
  });

  it("serves the file as it is without an accepted encoding, or with br refused", async () => {
    const plain = await rawGet(script, undefined);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");
    expect(plain.body.toString()).toBe(FAKE_APP_JS);
    expect((await rawGet(script, "identity")).body.toString()).toBe(FAKE_APP_JS);
    expect((await rawGet(script, "br;q=0, gzip")).headers["content-encoding"]).toBe("gzip");
    // A file with no Brotli sibling falls back to gzip.
    expect((await rawGet(`/static/${FAKE_MANIFEST["app.css"]}`, "br, gzip")).headers["content-encoding"]).toBe("gzip");
    const css = await rawGet(`/static/${FAKE_MANIFEST["auth.css"]}`, "br, gzip");
    expect(css.headers["content-encoding"]).toBeUndefined();
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
  });

  it("answers 404 for unknown files, folders and paths that leave the folder", async () => {
    for (const url of ["/static/nothing.js", "/static/", "/static/../package.json", "/static/%2e%2e/package.json", "/static/.hidden", "/static/a//b.js"]) {
      const res = await new Browser(site.server.url).get(url);
      expect(res.status, url).toBe(404);
    }
  });

  it("answers HEAD with the headers alone", async () => {
    const res = await fetch(site.server.url + script, { method: "HEAD", headers: { "accept-encoding": "br" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("cache-control")).toBe(IMMUTABLE);
  });
});

describe("the other browser addresses", () => {
  it("/favicon.ico leads to the built favicon", async () => {
    const res = await new Browser(site.server.url).get("/favicon.ico");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/static/${FAKE_MANIFEST["favicon.svg"]}`);
    const icon = await new Browser(site.server.url).get(`/static/${FAKE_MANIFEST["favicon.svg"]}`);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
  });

  it("/help/… leads to Zulip's help centre", async () => {
    const cases: [string, string][] = [
      ["/help/", "https://zulip.com/help/"],
      ["/help", "https://zulip.com/help/"],
      ["/help/keyboard-shortcuts", "https://zulip.com/help/keyboard-shortcuts"],
      ["/help/star-a-message#view-your-starred-messages", "https://zulip.com/help/star-a-message"],
      ["/help/format-your-message-using-markdown?x=1", "https://zulip.com/help/format-your-message-using-markdown?x=1"],
    ];
    for (const [url, location] of cases) {
      const res = await new Browser(site.server.url).get(url);
      expect(res.status, url).toBe(302);
      expect(res.headers.get("location"), url).toBe(location);
    }
  });

  it("puts the CSP on the other HTML pages (signup, file errors)", async () => {
    const join = await new Browser(site.server.url).get("/join/nonexistent/");
    expect(join.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(join.headers.get("content-security-policy")).toBe(CSP);
    const missing = await new Browser(site.server.url).get("/user_uploads/1/aa/nothing.png");
    expect(missing.headers.get("content-security-policy")).toBe(CSP);
  });

  it("leaves API answers without a CSP", async () => {
    const res = await site.server.as("hamlet").get("/users/me");
    expect(res.headers.get("content-security-policy")).toBeNull();
  });
});

/** A GET through node:http, which (unlike fetch) leaves the body encoded as sent. */
async function rawGet(url: string, acceptEncoding: string | undefined): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const http = await import("node:http");
  return new Promise((resolve, reject) => {
    const request = http.get(site.server.url + url, { headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}
