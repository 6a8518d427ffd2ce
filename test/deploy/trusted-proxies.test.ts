import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { startHaproxy, startNginx } from "../harness/proxy.js";
import { startServer, type TestServer } from "../harness/server.js";
import { makeCertificate, rawRequest, type TestCertificate } from "../harness/tls.js";

const LIMIT = 3;
const RATE_LIMITED = { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": 60 };
let trusting: TestServer;
let plain: TestServer;
let certDir: string;
let certificate: TestCertificate;

beforeAll(async () => {
  // The proxies (and these tests' direct calls) connect from 127.0.0.1; other clients come from
  // other addresses of 127.0.0.0/8, which no proxy is trusted at.
  trusting = await startServer({ anonRateLimitPerMinute: LIMIT, trustedProxies: ["127.0.0.1/32", "::1"] });
  plain = await startServer({ anonRateLimitPerMinute: LIMIT });
  certDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-proxy-tls-"));
  certificate = await makeCertificate(certDir, "proxy");
});
afterAll(async () => {
  await trusting.stop();
  await plain.stop();
  fs.rmSync(certDir, { recursive: true, force: true });
});

/** GET /server_settings (unauthenticated, rate limited per address): the status and, when refused, the body. */
async function anonymousCall(url: string, from: string, forwardedFor?: string): Promise<number> {
  const headers: Record<string, string> = forwardedFor ? { "x-forwarded-for": forwardedFor } : {};
  const res = await rawRequest(`${url}/api/v1/server_settings`, { localAddress: from, headers, ca: certificate.cert });
  if (res.status === 429) expect(JSON.parse(res.text)).toEqual(RATE_LIMITED);
  return res.status;
}

/** Spends `from`'s whole budget, checking the call after it is refused. */
async function exhaust(url: string, from: string, forwardedFor?: (i: number) => string): Promise<void> {
  for (let i = 0; i < LIMIT; i++) expect(await anonymousCall(url, from, forwardedFor?.(i))).toBe(200);
  expect(await anonymousCall(url, from, forwardedFor?.(LIMIT))).toBe(429);
}

function installed(command: string): boolean {
  return spawnSync(command, ["-v"]).error === undefined;
}

describe("ROOKERY_TRUSTED_PROXIES", () => {
  it("accepts addresses and CIDR ranges, IPv4 and IPv6, and refuses anything else with one line", () => {
    expect(loadConfig({ ROOKERY_TRUSTED_PROXIES: "10.0.0.0/8, 192.168.1.7 fd00::/8,::1" }).trustedProxies).toEqual(["10.0.0.0/8", "192.168.1.7", "fd00::/8", "::1"]);
    expect(loadConfig({}).trustedProxies).toEqual([]);
    for (const bad of ["10.0.0.0/33", "fd00::/129", "proxy.example.com", "10.0.0.1/8/8", "10.0.0/8", "10.0.0.0/x"]) {
      expect(() => loadConfig({ ROOKERY_TRUSTED_PROXIES: `127.0.0.1,${bad}` })).toThrow(`ROOKERY_TRUSTED_PROXIES must list IP addresses or CIDR ranges (e.g. 10.0.0.0/8, ::1), got "${bad}"`);
    }
  });

  it("unset: X-Forwarded-For is ignored, every caller is its connection's address", async () => {
    await exhaust(plain.url, "127.0.0.1", (i) => `198.51.100.${i + 1}`);
    // Another connection address has a budget of its own.
    expect(await anonymousCall(plain.url, "127.0.0.2")).toBe(200);
  });

  it("set: a client that sends X-Forwarded-For itself, from an address that is not a trusted proxy, keeps its own address", async () => {
    await exhaust(trusting.url, "127.0.0.2", (i) => `198.51.100.${i + 1}`);
    expect(await anonymousCall(trusting.url, "127.0.0.2", "203.0.113.50")).toBe(429);
    expect(await anonymousCall(trusting.url, "127.0.0.3", "198.51.100.1")).toBe(200);
  });

  it("set: from a trusted proxy, the rightmost address that is not a trusted proxy is the caller", async () => {
    await exhaust(trusting.url, "127.0.0.1", () => "198.51.100.20");
    // A forged entry to the left of the one the proxy added changes nothing.
    expect(await anonymousCall(trusting.url, "127.0.0.1", "203.0.113.1, 198.51.100.20")).toBe(429);
    // Trusted hops on the right are skipped.
    expect(await anonymousCall(trusting.url, "127.0.0.1", "198.51.100.20, 127.0.0.1")).toBe(429);
    expect(await anonymousCall(trusting.url, "127.0.0.1", "198.51.100.21")).toBe(200);
    expect(await anonymousCall(trusting.url, "127.0.0.1", "2001:db8::21")).toBe(200);
  });
});

describe("behind HAProxy (deploy/haproxy.cfg)", () => {
  it("gives two clients with different addresses a budget each, whatever X-Forwarded-For they send", async (t) => {
    if (!installed("haproxy")) return t.skip("needs haproxy on the PATH (.ci/run installs it)");
    const proxy = await startHaproxy([trusting.url]);
    try {
      await exhaust(proxy.url, "127.0.0.11");
      expect(await anonymousCall(proxy.url, "127.0.0.12")).toBe(200);
      // A client cannot borrow another address's budget by naming it.
      expect(await anonymousCall(proxy.url, "127.0.0.11", "127.0.0.13")).toBe(429);
      expect(await anonymousCall(proxy.url, "127.0.0.13")).toBe(200);
    } finally {
      await proxy.close();
    }
  });
});

describe("behind nginx (deploy/nginx.conf)", () => {
  it("ends TLS, forwards each client's address, sends plain HTTP to HTTPS and passes uploads larger than nginx's default", async (t) => {
    if (!installed("nginx")) return t.skip("needs nginx on the PATH (.ci/run installs it)");
    const proxy = await startNginx([trusting.url], certificate);
    try {
      await exhaust(proxy.url, "127.0.0.21");
      expect(await anonymousCall(proxy.url, "127.0.0.22")).toBe(200);
      expect(await anonymousCall(proxy.url, "127.0.0.21", "127.0.0.23")).toBe(429);
      expect(await anonymousCall(proxy.url, "127.0.0.23")).toBe(200);

      const redirect = await rawRequest(`${proxy.redirectUrl}/api/v1/server_settings?x=1`);
      expect([redirect.status, redirect.headers.location]).toEqual([301, "https://127.0.0.1/api/v1/server_settings?x=1"]);

      // nginx refuses bodies over 1 MiB unless told otherwise; 5 MiB is under Rookery's 25.
      const hamlet = trusting.users.hamlet;
      const boundary = "rookery-boundary";
      const data = Buffer.alloc(5 * 1024 * 1024, 7);
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await rawRequest(`${proxy.url}/api/v1/user_uploads`, {
        method: "POST",
        body,
        ca: certificate.cert,
        headers: { authorization: "Basic " + Buffer.from(`${hamlet.delivery_email}:${hamlet.api_key}`).toString("base64"), "content-type": `multipart/form-data; boundary=${boundary}` },
      });
      expect(res.status).toBe(200);
      const url = (JSON.parse(res.text) as { url: string }).url;
      const back = await rawRequest(`${proxy.url}${url}`, { ca: certificate.cert, headers: { authorization: "Basic " + Buffer.from(`${hamlet.delivery_email}:${hamlet.api_key}`).toString("base64") } });
      expect([back.status, back.text.length, back.peerCertificate]).toEqual([200, data.length, "rookery-test"]);
    } finally {
      await proxy.close();
    }
  }, 30_000);
});
