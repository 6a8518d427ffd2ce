/**
 * The image proxy behind /thumbnail: fetches an image from another site on a reader's behalf
 * (so the reader's browser never contacts that site), re-encodes it, and keeps the result in a
 * disk cache of bounded size. Only http(s), only public addresses (checked after every DNS
 * resolution, on every redirect, and pinned for the connection so a second resolution cannot
 * point elsewhere), bounded in bytes, time and redirects, and only what decodes as an image.
 */
import { createHash, randomBytes } from "node:crypto";
import { promises as dns } from "node:dns";
import fs from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import path from "node:path";
import type { Logger } from "pino";
import { checkImage, hasImageSignature, IMAGE_SIGNATURE_BYTES, reencodeImage } from "./images.js";
import { isPublicAddress } from "./public-address.js";

/** One resolved address of a host name. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (the system resolver unless a test injects one). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The two renditions /thumbnail serves: a preview-sized one and the full image. */
export type ProxySize = "thumbnail" | "full";

/** The box each rendition is scaled down to fit (never up): Zulip's default thumbnail and its largest transcode. */
export const PROXY_BOXES: Record<ProxySize, { width: number; height: number }> = {
  thumbnail: { width: 840, height: 560 },
  full: { width: 4032, height: 3024 },
};

export interface ImageProxyOptions {
  cacheDir: string;
  /** The cache's size cap in bytes; past it the least recently used renditions go. */
  cacheBytes: number;
  /** The largest image fetched, in bytes. */
  maxBytes: number;
  /** The time one fetch may take, redirects included, in ms. */
  timeoutMs: number;
  maxRedirects: number;
  /** Also fetch from loopback, private and other non-public addresses (tests, closed networks). */
  allowPrivate: boolean;
  /** Fetches and re-encodes running at once; more wait, and past `maxWaiting` are turned away. */
  concurrency: number;
  maxWaiting: number;
  resolver?: Resolver;
  /** Which addresses count as public (isPublicAddress unless a test widens it). */
  isPublic?: (address: string) => boolean;
  log: Logger;
}

/** Why an image cannot be served: the message and HTTP status /thumbnail answers with. */
export class ImageProxyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Redirects followed before giving up. */
export const IMAGE_PROXY_MAX_REDIRECTS = 5;
/** Fetches and re-encodes at once per process, and how many more may wait. */
export const IMAGE_PROXY_CONCURRENCY = 4;
export const IMAGE_PROXY_MAX_WAITING = 64;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = "Mozilla/5.0 (compatible; Rookery image proxy)";

interface CacheEntry {
  bytes: number;
  used: number;
}

/** The proxy and its cache; one per process. */
export class ImageProxy {
  private readonly index = new Map<string, CacheEntry>();
  private cachedBytes = 0;
  private loaded: Promise<void> | undefined;
  private readonly inflight = new Map<string, Promise<string>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly resolve: Resolver;

  constructor(private readonly options: ImageProxyOptions) {
    this.resolve = options.resolver ?? systemResolver;
  }

  /**
   * The path of the cached rendition of the image at `url`, fetched and made first when missing
   * (concurrent requests for the same rendition share one fetch). Throws ImageProxyError.
   */
  async rendition(url: string, size: ProxySize): Promise<string> {
    await (this.loaded ??= this.loadIndex());
    const key = createHash("sha256").update(`${size} ${url}`).digest("hex");
    const file = this.fileOf(key);
    const entry = this.index.get(key);
    if (entry && (await exists(file))) {
      entry.used = Date.now();
      return file;
    }
    // Made by another process sharing the data folder (a cluster): taken into this one's index.
    const stat = entry ? undefined : await fs.stat(file).catch(() => undefined);
    if (stat) {
      this.index.set(key, { bytes: stat.size, used: Date.now() });
      this.cachedBytes += stat.size;
      return file;
    }
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.withSlot(() => this.make(url, size, key)).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async make(url: string, size: ProxySize, key: string): Promise<string> {
    const original = await this.fetchImage(url);
    let encoded: Buffer;
    try {
      const facts = await checkImage(original);
      encoded = await reencodeImage(original, PROXY_BOXES[size], facts.frames > 1);
    } catch {
      throw new ImageProxyError("The file at that address is not an image.", 415);
    }
    const file = this.fileOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    await fs.writeFile(temporary, encoded);
    await fs.rename(temporary, file);
    const previous = this.index.get(key);
    if (previous) this.cachedBytes -= previous.bytes;
    this.index.set(key, { bytes: encoded.length, used: Date.now() });
    this.cachedBytes += encoded.length;
    await this.evict(key);
    return file;
  }

  // Least recently used first, until the cache is back under its cap (the rendition just made stays).
  private async evict(keep: string): Promise<void> {
    if (this.cachedBytes <= this.options.cacheBytes) return;
    const order = [...this.index.entries()].filter(([key]) => key !== keep).sort((a, b) => a[1].used - b[1].used);
    for (const [key, entry] of order) {
      if (this.cachedBytes <= this.options.cacheBytes) break;
      this.index.delete(key);
      this.cachedBytes -= entry.bytes;
      await fs.rm(this.fileOf(key), { force: true });
    }
  }

  private fileOf(key: string): string {
    return path.join(this.options.cacheDir, key.slice(0, 2), `${key}.webp`);
  }

  // What an earlier run left in the cache, by last modification.
  private async loadIndex(): Promise<void> {
    let folders: string[];
    try {
      folders = await fs.readdir(this.options.cacheDir);
    } catch {
      return;
    }
    for (const folder of folders) {
      let names: string[];
      try {
        names = await fs.readdir(path.join(this.options.cacheDir, folder));
      } catch {
        continue;
      }
      for (const name of names) {
        const full = path.join(this.options.cacheDir, folder, name);
        const match = /^([0-9a-f]{64})\.webp$/.exec(name);
        const stat = await fs.stat(full).catch(() => undefined);
        if (!stat) continue;
        // A temporary file is what a stop in the middle of a write left.
        if (!match?.[1]) {
          await fs.rm(full, { force: true });
          continue;
        }
        this.index.set(match[1], { bytes: stat.size, used: stat.mtimeMs });
        this.cachedBytes += stat.size;
      }
    }
    await this.evict("");
  }

  private async withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.concurrency) {
      if (this.waiting.length >= this.options.maxWaiting) throw new ImageProxyError("The image proxy is busy; try again later.", 503);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  /** The bytes at `url`, following redirects, within every limit. Throws ImageProxyError. */
  async fetchImage(url: string): Promise<Buffer> {
    const deadline = Date.now() + this.options.timeoutMs;
    let current = parseUrl(url);
    for (let redirects = 0; ; redirects++) {
      const address = await beforeDeadline(this.addressOf(current), deadline);
      const response = await this.request(current, address, deadline);
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode ?? 0) && location !== undefined) {
        response.destroy();
        if (redirects >= this.options.maxRedirects) throw new ImageProxyError(`The image's address redirects more than ${this.options.maxRedirects} times.`, 502);
        current = parseUrl(location, current);
        continue;
      }
      if (response.statusCode !== 200) {
        response.destroy();
        throw new ImageProxyError(`The image's server answered ${response.statusCode ?? "nothing"}.`, 502);
      }
      return this.readBody(response, deadline);
    }
  }

  // The address to connect to: resolved once, every address checked, the first one used (pinned).
  private async addressOf(url: URL): Promise<ResolvedAddress> {
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const literal = net.isIP(host);
    let addresses: ResolvedAddress[];
    if (literal !== 0) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
    else {
      try {
        addresses = await this.resolve(host);
      } catch {
        throw new ImageProxyError("The image's host name does not resolve.", 502);
      }
    }
    const first = addresses[0];
    if (!first) throw new ImageProxyError("The image's host name does not resolve.", 502);
    const isPublic = this.options.isPublic ?? isPublicAddress;
    if (!this.options.allowPrivate && addresses.some((a) => !isPublic(a.address))) {
      throw new ImageProxyError("The image's address is not a public one.", 403);
    }
    return first;
  }

  private request(url: URL, address: ResolvedAddress, deadline: number): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const secure = url.protocol === "https:";
      const request = (secure ? https : http).request({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port === "" ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers: { "User-Agent": USER_AGENT, Accept: "image/*", "Accept-Encoding": "identity" },
        agent: false,
        // The connection goes to the address checked above, whatever a new resolution would say.
        lookup: (_hostname, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
          else callback(null, address.address, address.family);
        },
      });
      const timer = setTimeout(() => request.destroy(new ImageProxyError("The image's server took too long.", 504)), Math.max(0, deadline - Date.now()));
      request.on("response", (response) => {
        response.once("close", () => clearTimeout(timer));
        resolve(response);
      });
      request.on("error", (error) => {
        clearTimeout(timer);
        reject(error instanceof ImageProxyError ? error : new ImageProxyError("The image's server could not be reached.", 502));
      });
      request.end();
    });
  }

  private readBody(response: http.IncomingMessage, deadline: number): Promise<Buffer> {
    const { maxBytes } = this.options;
    return new Promise((resolve, reject) => {
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) {
        response.destroy();
        reject(tooLarge(maxBytes));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      let checked = false;
      const fail = (error: ImageProxyError): void => {
        response.destroy();
        reject(error);
      };
      const timer = setTimeout(() => fail(new ImageProxyError("The image's server took too long.", 504)), Math.max(0, deadline - Date.now()));
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) return fail(tooLarge(maxBytes));
        chunks.push(chunk);
        // Decided from the bytes: what does not start as an image is not read further.
        if (!checked && received >= IMAGE_SIGNATURE_BYTES) {
          checked = true;
          if (!hasImageSignature(Buffer.concat(chunks))) fail(new ImageProxyError("The file at that address is not an image.", 415));
        }
      });
      response.on("end", () => {
        clearTimeout(timer);
        const body = Buffer.concat(chunks);
        if (!hasImageSignature(body)) reject(new ImageProxyError("The file at that address is not an image.", 415));
        else resolve(body);
      });
      response.on("error", () => {
        clearTimeout(timer);
        reject(new ImageProxyError("The image's server broke off the transfer.", 502));
      });
      response.on("close", () => clearTimeout(timer));
    });
  }
}

function tooLarge(maxBytes: number): ImageProxyError {
  return new ImageProxyError(`The image is larger than ${Math.round(maxBytes / (1024 * 1024))} MiB.`, 413);
}

/** An absolute http(s) URL, or ImageProxyError. */
function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new ImageProxyError("That is not an image's address.", 400);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ImageProxyError("Only http and https images are shown.", 400);
  return url;
}

async function systemResolver(hostname: string): Promise<ResolvedAddress[]> {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ImageProxyError("The image's server took too long.", 504)), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
