import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { startServer, type TestServer } from "../harness/server.js";
import { startOtherSite, type OtherSite } from "./image-proxy-helpers.js";
import { createChannels, sendStream } from "./messages-fixtures.js";
import { download } from "./uploads-helpers.js";

const NOT_AUTHORIZED = "<p>You are not authorized to view this file.</p>";

let server: TestServer;
let site: OtherSite;
beforeAll(async () => {
  site = await startOtherSite();
  // Private addresses allowed: "the other site" is on loopback. Small limits, so tests are quick.
  server = await startServer({ imageProxy: { allowPrivate: true, maxMib: 1, timeoutS: 1, cacheMib: 50 } });
  await createChannels(server);
});
afterAll(async () => {
  await server.stop();
  await site.close();
});

/** The /thumbnail path of an image on the other site, the URL encoded as Zulip 9.0 writes it. */
function thumbnail(path: string, size = "thumbnail"): string {
  const encoded = `http%3A%2F%2F127.0.0.1%3A${site.port}${path.replace(/\//g, "%2F")}`;
  return `/thumbnail?url=${encoded}&size=${size}`;
}

async function renderedOf(id: number): Promise<string> {
  return (await server.as("hamlet").get(`/messages/${id}`)).body.message.content as string;
}

async function shown(path: string, stream = "Verona"): Promise<string> {
  const url = `${site.origin}${path}`;
  await sendStream(server, "hamlet", stream, "pics", `look ${url}`);
  return url;
}

function json(body: Buffer): unknown {
  return JSON.parse(body.toString("utf8"));
}

describe("GET /thumbnail: the image proxy", () => {
  it("serves a message's external image, re-encoded, at both sizes, from its cache the second time", async () => {
    const url = `${site.origin}/img/photo.png`;
    const id = await sendStream(server, "hamlet", "Verona", "pics", `look ${url}`);
    const src = thumbnail("/img/photo.png");
    const full = thumbnail("/img/photo.png", "full");
    expect(await renderedOf(id)).toBe(
      `<p>look <a href="${url}">${url}</a></p>\n<div class="message_inline_image"><a href="${url}"><img data-src-fullsize="${full.replace(/&/g, "&amp;")}" src="${src.replace(/&/g, "&amp;")}"></a></div>`,
    );
    const got = await download(server, "othello", src);
    expect([got.status, got.headers.get("content-type"), got.headers.get("x-content-type-options")]).toEqual([200, "image/webp", "nosniff"]);
    expect(await sharp(got.body).metadata()).toMatchObject({ format: "webp", width: 840, height: 560 });
    const big = await download(server, "othello", full);
    expect(await sharp(big.body).metadata()).toMatchObject({ format: "webp", width: 1200, height: 800 });
    expect(site.hits.get("/img/photo.png")).toBe(2);
    const again = await download(server, "hamlet", src);
    expect([again.status, again.body.equals(got.body), site.hits.get("/img/photo.png")]).toEqual([200, true, 2]);
  });

  it("follows a redirect to the image", async () => {
    await shown("/img/moved.png");
    const got = await download(server, "hamlet", thumbnail("/img/moved.png"));
    expect(await sharp(got.body).metadata()).toMatchObject({ format: "webp", width: 840, height: 560 });
  });

  it("serves only images that a message the caller can read shows", async () => {
    await shown("/img/other.png", "secret");
    expect((await download(server, "hamlet", thumbnail("/img/other.png"))).status).toBe(200);
    for (const [who, path] of [["cordelia", "/img/other.png"], ["hamlet", "/img/never-sent.png"], [undefined, "/img/photo.png"]] as const) {
      const got = await download(server, who, thumbnail(path));
      expect([got.status, got.headers.get("content-type"), got.body.toString()]).toEqual([403, "text/html; charset=utf-8", NOT_AUTHORIZED]);
    }
    // A message's edit that drops the image drops it from the proxy too.
    const id = await sendStream(server, "hamlet", "Verona", "pics", `${site.origin}/img/edited.png`);
    expect((await server.as("hamlet").patch(`/messages/${id}`, { content: "never mind" })).status).toBe(200);
    expect((await download(server, "hamlet", thumbnail("/img/edited.png"))).status).toBe(403);
  });

  it("answers bad requests with Zulip's errors", async () => {
    const noUrl = await download(server, "hamlet", "/thumbnail?size=full");
    expect([noUrl.status, json(noUrl.body)]).toEqual([400, { result: "error", msg: "Missing 'url' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "url" }]);
    const noSize = await download(server, "hamlet", `/thumbnail?url=${encodeURIComponent(`${site.origin}/img/photo.png`)}`);
    expect([noSize.status, json(noSize.body)]).toEqual([400, { result: "error", msg: "Missing 'size' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "size" }]);
    const badSize = await download(server, "hamlet", thumbnail("/img/photo.png", "huge"));
    expect([badSize.status, json(badSize.body)]).toEqual([400, { result: "error", msg: "Invalid size.", code: "BAD_REQUEST" }]);
    const badKey = await download(server, undefined, `${thumbnail("/img/photo.png")}&api_key=nope`);
    expect([badKey.status, json(badKey.body)]).toEqual([401, { result: "error", msg: "Malformed API key", code: "UNAUTHORIZED" }]);
  });

  it("refuses what is not an image, decided from the bytes, and a URL without an extension gets no preview", async () => {
    await shown("/img/page.png");
    const page = await download(server, "hamlet", thumbnail("/img/page.png"));
    expect([page.status, json(page.body)]).toEqual([415, { result: "error", msg: "The file at that address is not an image.", code: "BAD_REQUEST" }]);
    const url = `${site.origin}/img/noext`;
    const id = await sendStream(server, "hamlet", "Verona", "pics", url);
    expect(await renderedOf(id)).toBe(`<p><a href="${url}">${url}</a></p>`);
    expect((await download(server, "hamlet", thumbnail("/img/noext"))).status).toBe(403);
  });

  it("refuses an image over the size limit, declared or streamed", async () => {
    for (const path of ["/img/huge.png", "/img/endless.png"]) {
      await shown(path);
      const got = await download(server, "hamlet", thumbnail(path));
      expect([got.status, json(got.body)]).toEqual([413, { result: "error", msg: "The image is larger than 1 MiB.", code: "BAD_REQUEST" }]);
    }
  });

  it("gives up on a slow server within its time limit, and other requests go on meanwhile", async () => {
    await shown("/img/slow.png");
    const started = Date.now();
    const slow = download(server, "hamlet", thumbnail("/img/slow.png"));
    const me = Date.now();
    expect((await server.as("othello").get("/users/me")).status).toBe(200);
    expect(Date.now() - me).toBeLessThan(500);
    const got = await slow;
    expect([got.status, json(got.body)]).toEqual([504, { result: "error", msg: "The image's server took too long.", code: "BAD_REQUEST" }]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("stops after five redirects, and reports what the other site answered", async () => {
    await shown("/img/loop.png");
    const loop = await download(server, "hamlet", thumbnail("/img/loop.png"));
    expect([loop.status, json(loop.body)]).toEqual([502, { result: "error", msg: "The image's address redirects more than 5 times.", code: "BAD_REQUEST" }]);
    expect(site.hits.get("/img/loop.png")).toBe(6);
    await shown("/img/gone.png");
    const gone = await download(server, "hamlet", thumbnail("/img/gone.png"));
    expect([gone.status, json(gone.body)]).toEqual([502, { result: "error", msg: "The image's server answered 404.", code: "BAD_REQUEST" }]);
  });

  it("reads its limits from the environment", () => {
    expect(loadConfig({}).imageProxy).toEqual({ allowPrivate: false, maxMib: 10, timeoutS: 10, cacheMib: 500 });
    expect(loadConfig({ ROOKERY_IMAGE_PROXY_ALLOW_PRIVATE: "1", ROOKERY_IMAGE_PROXY_MAX_MIB: "2", ROOKERY_IMAGE_PROXY_TIMEOUT_S: "3", ROOKERY_IMAGE_PROXY_CACHE_MIB: "4" }).imageProxy).toEqual({
      allowPrivate: true,
      maxMib: 2,
      timeoutS: 3,
      cacheMib: 4,
    });
    expect(() => loadConfig({ ROOKERY_IMAGE_PROXY_ALLOW_PRIVATE: "yes" })).toThrow('ROOKERY_IMAGE_PROXY_ALLOW_PRIVATE must be 0 or 1, got "yes"');
    expect(() => loadConfig({ ROOKERY_IMAGE_PROXY_TIMEOUT_S: "0" })).toThrow('ROOKERY_IMAGE_PROXY_TIMEOUT_S must be at least 1, got "0"');
  });
});

describe("GET /thumbnail with private addresses refused (the default)", () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startServer();
    await createChannels(strict);
  });
  afterAll(() => strict.stop());

  it("fetches nothing from loopback, whether named by address or by a name that resolves to it", async () => {
    for (const origin of [site.origin, `http://localhost:${site.port}`, `http://[::1]:${site.port}`]) {
      const before = site.hits.get("/img/photo.png") ?? 0;
      const url = `${origin}/img/photo.png`;
      await sendStream(strict, "hamlet", "Verona", "pics", `[picture](${url})`);
      const got = await download(strict, "hamlet", `/thumbnail?url=${encodeURIComponent(url)}&size=thumbnail`);
      expect([got.status, json(got.body)]).toEqual([403, { result: "error", msg: "The image's address is not a public one.", code: "BAD_REQUEST" }]);
      expect(site.hits.get("/img/photo.png") ?? 0).toBe(before);
    }
  });
});
