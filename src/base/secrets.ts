import { randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const scryptInPool = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/**
 * Hashes at once in libuv's thread pool (four threads, shared with file reads). The rest wait
 * here: a burst of sign-ups or logins must not queue hundreds of hashes ahead of every file
 * read, nor ahead of a stopping process, which runs what the pool has queued before it exits.
 */
const HASHES_AT_ONCE = 2;
let hashing = 0;
const waitingHashes: (() => void)[] = [];

async function scryptAsync(password: string, salt: Buffer, keylen: number): Promise<Buffer> {
  if (hashing >= HASHES_AT_ONCE) await new Promise<void>((resolve) => waitingHashes.push(resolve));
  else hashing++;
  try {
    return await scryptInPool(password, salt, keylen);
  } finally {
    const next = waitingHashes.shift();
    if (next) next();
    else hashing--;
  }
}
const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A random alphanumeric string from the CSPRNG (API keys are 32 characters). */
export function randomToken(length = 32): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

/** A channel's email-gateway token: 16 random bytes as 32 hex digits (Zulip's generate_email_token_for_stream). */
export function newStreamEmailToken(): string {
  return randomBytes(16).toString("hex");
}

/** Hashes a password with scrypt and a random salt: `scrypt$<salt>$<hash>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize("NFKC"), salt, 32);
  return `scrypt$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/** Hashed in place of a missing or unusable hash, so that no answer is quicker for an unknown user. */
const DUMMY_HASH = `scrypt$${randomBytes(16).toString("base64")}$${randomBytes(32).toString("base64")}`;

/**
 * Checks a password against a stored hash in constant time. Without a usable hash (an unknown
 * user, one with no password) it still hashes, against a dummy, and answers false: the time
 * taken never tells whether an account exists.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const usable = stored !== null && /^scrypt\$[^$]+\$[^$]+$/.test(stored);
  const [, salt, hash] = (usable ? stored : DUMMY_HASH).split("$");
  const expected = Buffer.from(hash!, "base64");
  const actual = await scryptAsync(password.normalize("NFKC"), Buffer.from(salt!, "base64"), expected.length);
  return timingSafeEqual(expected, actual) && usable;
}

/** The key kept in `file` (32 random bytes, made on first use, readable by its owner only). */
export function loadOrCreateKey(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const key = randomBytes(32);
    try {
      fs.writeFileSync(file, key, { flag: "wx", mode: 0o600 });
      return key;
    } catch {
      // Another process wrote it first.
      return fs.readFileSync(file);
    }
  }
}
