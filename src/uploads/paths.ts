import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import path from "node:path";
import { loadOrCreateKey } from "../base/secrets.js";

/**
 * Zulip's sanitize_name: Unicode letters, digits, "_", ".", "-" kept (NFKC-normalised), other
 * characters dropped, runs of spaces and dashes made one dash; nothing usable left is
 * "uploaded-file". Slashes never survive, so a name cannot climb out of its directory.
 */
export function sanitizeName(value: string): string {
  const kept = value
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N}\p{M}_\s.-]/gu, "")
    .trim()
    .replace(/[-\s]+/g, "-");
  return kept === "" || kept === "." || kept === ".." ? "uploaded-file" : kept;
}

/**
 * The longest file name, in UTF-8 bytes, a stored file gets: file systems take 255, and storage
 * writes a file under its name plus a temporary suffix before renaming it.
 */
export const MAX_STORED_NAME_BYTES = 200;

/** A sanitised name cut to MAX_STORED_NAME_BYTES at a character boundary, keeping a short extension. */
export function fitName(name: string): string {
  if (Buffer.byteLength(name) <= MAX_STORED_NAME_BYTES) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 && Buffer.byteLength(name.slice(dot)) <= 16 ? name.slice(dot) : "";
  let room = MAX_STORED_NAME_BYTES - Buffer.byteLength(extension);
  let stem = "";
  for (const char of name.slice(0, name.length - extension.length)) {
    room -= Buffer.byteLength(char);
    if (room < 0) break;
    stem += char;
  }
  return stem + extension;
}

/** Python's urllib.parse.unquote, as Zulip applies it to uploaded file names: %XX escapes decoded where they form UTF-8. */
export function unquote(value: string): string {
  return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** A new upload's path id: `<realm id>/<2 hex>/<24 random URL-safe characters>/<name>`, as Zulip makes them. */
export function newPathId(realmId: number, fileName: string): string {
  return [String(realmId), randomInt(256).toString(16), randomBytes(18).toString("base64url"), fileName].join("/");
}

/**
 * The folder an upload alone occupies (`<realm id>/<2 hex>/<random>/`), removed with it; undefined
 * for a path id not of that shape.
 */
export function uploadFolderOf(pathId: string): string | undefined {
  const parts = pathId.split("/");
  return parts.length === 4 && /^[A-Za-z0-9_-]{24}$/.test(parts[2] ?? "") ? `${parts.slice(0, 3).join("/")}/` : undefined;
}

/** A path id is well-formed: realm id, then non-empty parts without dot-only segments. */
export function isPathId(value: string): boolean {
  const parts = value.split("/");
  return parts.length >= 2 && /^\d+$/.test(parts[0] ?? "") && parts.slice(1).every((p) => p !== "" && p !== "." && p !== "..");
}

/**
 * The path ids a message's links could name (Zulip's potential_attachment_path_ids): links to
 * `/user_uploads/…`, relative or on this server, in order, without repeats.
 */
export function linkedPathIds(links: readonly string[], realmUrl: string): string[] {
  const host = new URL(realmUrl).host;
  const out = new Set<string>();
  for (const link of links) {
    let url: URL;
    try {
      url = new URL(link, `${realmUrl.replace(/\/+$/, "")}/`);
    } catch {
      continue;
    }
    if (url.host !== host || !url.pathname.startsWith("/user_uploads/")) continue;
    let pathId: string;
    try {
      pathId = decodeURIComponent(url.pathname.slice("/user_uploads/".length));
    } catch {
      continue;
    }
    if (isPathId(pathId)) out.add(pathId);
  }
  return [...out];
}

/** Zulip's temporary file URLs last this long. */
export const TEMPORARY_URL_SECONDS = 60;

/** Signs and checks the tokens of temporary (credential-free) file URLs with a key kept in the data directory. */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(dataDir: string) {
    this.key = loadOrCreateKey(path.join(dataDir, "secrets", "upload-url-key"));
  }

  /** A token naming `pathId` until `now` + 60 s. */
  sign(pathId: string, now: number): string {
    const payload = `${pathId}\n${now + TEMPORARY_URL_SECONDS * 1000}`;
    return Buffer.from(`${payload}\n${this.mac(payload)}`).toString("hex");
  }

  /** The path id a token names, or undefined when it is forged, malformed or expired. */
  verify(token: string, now: number): string | undefined {
    if (!/^(?:[0-9a-f]{2})+$/.test(token)) return undefined;
    const [pathId, expires, mac, ...rest] = Buffer.from(token, "hex").toString("utf8").split("\n");
    if (pathId === undefined || expires === undefined || mac === undefined || rest.length > 0 || !/^\d+$/.test(expires)) return undefined;
    const expected = Buffer.from(this.mac(`${pathId}\n${expires}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return Number(expires) >= now ? pathId : undefined;
  }

  /** A keyed digest naming a user's avatar files (stable, not guessable). */
  avatarHash(userId: number): string {
    return createHmac("sha1", this.key).update(`avatar:${userId}`).digest("hex");
  }

  private mac(payload: string): string {
    return createHmac("sha256", this.key).update(payload).digest("base64url");
  }
}
