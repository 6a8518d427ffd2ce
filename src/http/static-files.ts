import fs from "node:fs";
import path from "node:path";
import type { FastifyReply, FastifyRequest } from "fastify";

/** The built web app's logical names (`app.js`, `app.css`, `auth.css`, `favicon.svg`…) → hashed file names. */
export type Manifest = Record<string, string>;

/** Hashed files never change: browsers and proxies keep them for a year without asking again. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** A file name under the web folder: segments of safe characters, none starting with a dot. */
const STATIC_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".txt": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
};

/**
 * The built web app (`dist/web`, or ROOKERY_WEB_DIR): its manifest, read again whenever the file
 * changes (a rebuild while the server runs), and its files, served with Brotli or gzip siblings.
 */
export class WebAssets {
  private read: { mtimeMs: number; manifest: Manifest } | undefined;

  constructor(readonly dir: string) {}

  /** The manifest, or undefined when the web app is not built (no readable manifest.json). */
  async manifest(): Promise<Manifest | undefined> {
    const file = path.join(this.dir, "manifest.json");
    let mtimeMs: number;
    try {
      mtimeMs = (await fs.promises.stat(file)).mtimeMs;
    } catch {
      return undefined;
    }
    if (this.read?.mtimeMs === mtimeMs) return this.read.manifest;
    try {
      const parsed: unknown = JSON.parse(await fs.promises.readFile(file, "utf8"));
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
      const manifest: Manifest = {};
      for (const [key, value] of Object.entries(parsed)) if (typeof value === "string" && STATIC_NAME.test(value)) manifest[key] = value;
      this.read = { mtimeMs, manifest };
      return manifest;
    } catch {
      return undefined;
    }
  }

  /** The URL of a built file by its logical name, or undefined when it is not built. */
  async url(name: string): Promise<string | undefined> {
    const file = (await this.manifest())?.[name];
    return file === undefined ? undefined : `/static/${file}`;
  }

  /**
   * Serves `/static/<name>`: the `.br` or `.gz` sibling when the client accepts it (Brotli first),
   * cached for a year as immutable, `Vary: Accept-Encoding`. Unknown or unsafe names: 404.
   */
  async send(request: FastifyRequest, reply: FastifyReply, name: string): Promise<void> {
    const full = STATIC_NAME.test(name) ? path.join(this.dir, name) : undefined;
    const plain = full === undefined ? undefined : await fileSize(full);
    if (full === undefined || plain === undefined) {
      reply.code(404).type("text/plain").send("Not Found\n");
      return;
    }
    let chosen = { file: full, size: plain, encoding: "" };
    for (const encoding of acceptedEncodings(request.headers["accept-encoding"])) {
      const sibling = `${full}.${encoding === "br" ? "br" : "gz"}`;
      const size = await fileSize(sibling);
      if (size !== undefined) {
        chosen = { file: sibling, size, encoding };
        break;
      }
    }
    reply
      .header("Content-Type", TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream")
      .header("Cache-Control", IMMUTABLE)
      .header("Vary", "Accept-Encoding")
      .header("X-Content-Type-Options", "nosniff")
      .header("Content-Length", String(chosen.size));
    if (chosen.encoding !== "") reply.header("Content-Encoding", chosen.encoding);
    reply.send(fs.createReadStream(chosen.file));
  }
}

/** The encodings of precompressed siblings the client accepts, best first: br, then gzip. */
export function acceptedEncodings(header: string | string[] | undefined): ("br" | "gzip")[] {
  const text = Array.isArray(header) ? header.join(",") : (header ?? "");
  const accepted = new Map<string, number>();
  for (const part of text.split(",")) {
    const [token, ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
    accepted.set((token ?? "").trim().toLowerCase(), q ? Number(q[1]) : 1);
  }
  const wildcard = accepted.get("*") ?? 0;
  return (["br", "gzip"] as const).filter((encoding) => (accepted.get(encoding) ?? wildcard) > 0);
}

async function fileSize(file: string): Promise<number | undefined> {
  try {
    const stat = await fs.promises.stat(file);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}
