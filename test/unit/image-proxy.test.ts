import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageProxy, ImageProxyError, type ImageProxyOptions, type ResolvedAddress } from "../../src/uploads/image-proxy.js";
import { isPublicAddress } from "../../src/uploads/public-address.js";
import { startOtherSite, type OtherSite } from "../api/image-proxy-helpers.js";

describe("public addresses", () => {
  it("refuses loopback, private, link-local, CGNAT, multicast, metadata and other special ranges, in IPv4 and IPv6", () => {
    const refused = [
      "127.0.0.1", "127.255.255.254", "0.0.0.0", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1",
      "100.127.255.255", "192.0.0.170", "192.0.2.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1",
      "255.255.255.255", "::", "::1", "fe80::1", "fe80::1%eth0", "fc00::1", "fd12:3456::1", "ff02::1", "fec0::1", "2001:db8::1", "2001::1",
      "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "2002:c0a8:101::1",
      "100::1", "64:ff9b:1::1", "not an address", "",
    ];
    const allowed = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "2a00:1450:4001:82a::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"];
    expect(refused.filter(isPublicAddress)).toEqual([]);
    expect(allowed.filter((a) => !isPublicAddress(a))).toEqual([]);
  });
});

// "The other site" on 127.0.0.2, which these proxies alone take for a public address: so a
// redirect from it into 127.0.0.1 is a redirect from a public address into a private one.
let site: OtherSite;
let loopback: OtherSite;
let cacheDir: string;
beforeAll(async () => {
  site = await startOtherSite("127.0.0.2");
  loopback = await startOtherSite("127.0.0.1");
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-image-proxy-"));
});
afterAll(async () => {
  await site.close();
  await loopback.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

function proxy(overrides: Partial<ImageProxyOptions> = {}, resolve: (name: string) => ResolvedAddress[] = namesToLoopback): ImageProxy {
  return new ImageProxy({
    cacheDir: fs.mkdtempSync(path.join(cacheDir, "c-")),
    cacheBytes: 10 * 1024 * 1024,
    maxBytes: 1024 * 1024,
    timeoutMs: 2000,
    maxRedirects: 5,
    allowPrivate: false,
    concurrency: 2,
    maxWaiting: 4,
    resolver: async (name) => resolve(name),
    isPublic: (address) => address === "127.0.0.2" || isPublicAddress(address),
    log: pino({ level: "silent" }),
    ...overrides,
  });
}

// images.test resolves to the other site; internal.test to plain loopback.
function namesToLoopback(name: string): ResolvedAddress[] {
  if (name === "images.test") return [{ address: "127.0.0.2", family: 4 }];
  if (name === "internal.test") return [{ address: "127.0.0.1", family: 4 }];
  if (name === "mixed.test") return [{ address: "127.0.0.2", family: 4 }, { address: "10.0.0.1", family: 4 }];
  throw new Error("no such name");
}

async function failure(work: Promise<unknown>): Promise<[number, string]> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ImageProxyError) return [error.status, error.message];
    throw error;
  }
  throw new Error("expected a failure");
}

describe("the image proxy's fetches", () => {
  it("fetch from a public address, by name, and follow a redirect there", async () => {
    const images = proxy();
    expect((await images.fetchImage(`http://images.test:${site.port}/img/photo.png`)).subarray(1, 4).toString()).toBe("PNG");
    expect((await images.fetchImage(`http://images.test:${site.port}/img/moved.png`)).subarray(1, 4).toString()).toBe("PNG");
    // No extension: the bytes decide.
    expect((await images.fetchImage(`http://images.test:${site.port}/img/noext`)).subarray(1, 4).toString()).toBe("PNG");
  });

  it("refuse a redirect into a private address, by literal or by a name that resolves to one", async () => {
    const images = proxy();
    const before = loopback.hits.get("/img/photo.png") ?? 0;
    for (const target of [`http://internal.test:${loopback.port}/img/photo.png`, `http://127.0.0.1:${loopback.port}/img/photo.png`, `http://[::ffff:127.0.0.1]:${loopback.port}/img/photo.png`]) {
      const url = `http://images.test:${site.port}/redirect?to=${encodeURIComponent(target)}`;
      expect(await failure(images.fetchImage(url))).toEqual([403, "The image's address is not a public one."]);
    }
    expect(await failure(images.fetchImage(`http://mixed.test:${site.port}/img/photo.png`))).toEqual([403, "The image's address is not a public one."]);
    expect(loopback.hits.get("/img/photo.png") ?? 0).toBe(before);
    // With private addresses allowed (tests, closed networks) the same redirect is followed.
    const open = proxy({ allowPrivate: true });
    const url = `http://images.test:${site.port}/redirect?to=${encodeURIComponent(`http://internal.test:${loopback.port}/img/photo.png`)}`;
    expect((await open.fetchImage(url)).subarray(1, 4).toString()).toBe("PNG");
  });

  it("connect to the address checked, however the name resolves afterwards (no DNS rebinding)", async () => {
    let lookups = 0;
    const rebinding = proxy({}, () => {
      lookups += 1;
      return [{ address: lookups === 1 ? "127.0.0.2" : "127.0.0.1", family: 4 }];
    });
    const before = loopback.hits.get("/img/photo.png") ?? 0;
    expect((await rebinding.fetchImage(`http://rebind.test:${site.port}/img/photo.png`)).subarray(1, 4).toString()).toBe("PNG");
    expect([lookups, loopback.hits.get("/img/photo.png") ?? 0]).toEqual([1, before]);
  });

  it("refuse other schemes, names that do not resolve, and addresses that are not URLs", async () => {
    const images = proxy();
    expect(await failure(images.fetchImage("ftp://images.test/a.png"))).toEqual([400, "Only http and https images are shown."]);
    expect(await failure(images.fetchImage("file:///etc/passwd"))).toEqual([400, "Only http and https images are shown."]);
    expect(await failure(images.fetchImage("user_uploads/2/ab/a.png"))).toEqual([400, "That is not an image's address."]);
    expect(await failure(images.fetchImage(`http://nowhere.test:${site.port}/img/photo.png`))).toEqual([502, "The image's host name does not resolve."]);
    const url = `http://images.test:${site.port}/redirect?to=${encodeURIComponent("gopher://images.test/")}`;
    expect(await failure(images.fetchImage(url))).toEqual([400, "Only http and https images are shown."]);
  });
});

describe("the image proxy's cache", () => {
  it("makes a rendition once for requests at the same time, and evicts the least recently used past its cap", async () => {
    const images = proxy({ cacheBytes: 1 });
    const hits = site.hits.get("/img/other.png") ?? 0;
    const [a, b] = await Promise.all([images.rendition(`http://images.test:${site.port}/img/other.png`, "thumbnail"), images.rendition(`http://images.test:${site.port}/img/other.png`, "thumbnail")]);
    expect([a === b, fs.existsSync(a), (site.hits.get("/img/other.png") ?? 0) - hits]).toEqual([true, true, 1]);
    const c = await images.rendition(`http://images.test:${site.port}/img/photo.png`, "thumbnail");
    expect([fs.existsSync(a), fs.existsSync(c)]).toEqual([false, true]);
  });

  it("picks up what an earlier run left, under the cap", async () => {
    const first = proxy();
    const file = await first.rendition(`http://images.test:${site.port}/img/other.png`, "full");
    const dir = path.dirname(path.dirname(file));
    fs.writeFileSync(path.join(path.dirname(file), "half-written.tmp"), "x");
    const hits = site.hits.get("/img/other.png") ?? 0;
    const second = proxy({ cacheDir: dir });
    expect(await second.rendition(`http://images.test:${site.port}/img/other.png`, "full")).toBe(file);
    expect([site.hits.get("/img/other.png") ?? 0, fs.existsSync(path.join(path.dirname(file), "half-written.tmp"))]).toEqual([hits, false]);
  });
});
