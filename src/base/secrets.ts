import { pbkdf2, randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { verify as argon2Verify } from "@node-rs/argon2";

const scryptInPool = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const pbkdf2InPool = promisify(pbkdf2);

/**
 * Hashes at once in libuv's thread pool (four threads, shared with file reads). The rest wait
 * here: a burst of sign-ups or logins must not queue hundreds of hashes ahead of every file
 * read, nor ahead of a stopping process, which runs what the pool has queued before it exits.
 */
const HASHES_AT_ONCE = 2;
let hashing = 0;
const waitingHashes: (() => void)[] = [];

/** Runs one hash (scrypt, or an imported Django hash's PBKDF2 or Argon2) within HASHES_AT_ONCE. */
async function oneHash<T>(run: () => Promise<T>): Promise<T> {
  if (hashing >= HASHES_AT_ONCE) await new Promise<void>((resolve) => waitingHashes.push(resolve));
  else hashing++;
  try {
    return await run();
  } finally {
    const next = waitingHashes.shift();
    if (next) next();
    else hashing--;
  }
}

function scryptAsync(password: string, salt: Buffer, keylen: number): Promise<Buffer> {
  return oneHash(() => scryptInPool(password, salt, keylen));
}

function pbkdf2Async(password: string, salt: string, iterations: number, keylen: number, digest: string): Promise<Buffer> {
  return oneHash(() => pbkdf2InPool(password, salt, iterations, keylen, digest));
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
 * taken never tells whether an account exists. Besides Rookery's own scrypt hashes it reads the
 * hashes of Django's PBKDF2 and Argon2 hashers that organisations imported from Zulip bring
 * (`needsRehash` tells the login to store the password in Rookery's format instead).
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored !== null && stored.startsWith("pbkdf2_")) return verifyDjangoPbkdf2(password, stored);
  if (stored !== null && stored.startsWith("argon2$")) return verifyDjangoArgon2(password, stored);
  const usable = stored !== null && /^scrypt\$[^$]+\$[^$]+$/.test(stored);
  const [, salt, hash] = (usable ? stored : DUMMY_HASH).split("$");
  const expected = Buffer.from(hash!, "base64");
  const actual = await scryptAsync(password.normalize("NFKC"), Buffer.from(salt!, "base64"), expected.length);
  return timingSafeEqual(expected, actual) && usable;
}

/** Whether a stored hash is in another format than Rookery's (a Django hash from an import). */
export function needsRehash(stored: string | null): boolean {
  return stored !== null && !stored.startsWith("scrypt$");
}

/** The most PBKDF2 iterations read (Django's defaults are below a million). */
const MAX_PBKDF2_ITERATIONS = 10_000_000;

/** Django's PBKDF2PasswordHasher (pbkdf2_sha256) and PBKDF2SHA1PasswordHasher: `<algorithm>$<iterations>$<salt>$<base64 hash>`. */
async function verifyDjangoPbkdf2(password: string, stored: string): Promise<boolean> {
  const match = /^pbkdf2_(sha256|sha1)\$(\d+)\$([^$]*)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  const iterations = Number(match?.[2]);
  if (!match || iterations < 1 || iterations > MAX_PBKDF2_ITERATIONS) return verifyPassword(password, null);
  const expected = Buffer.from(match[4]!, "base64");
  if (expected.length === 0) return verifyPassword(password, null);
  const actual = await pbkdf2Async(password, match[3]!, iterations, expected.length, match[1]!);
  return timingSafeEqual(expected, actual);
}

/**
 * The costliest Argon2 hash read: a stored hash names its own memory and passes, and one that
 * asked for gigabytes must not get them (Django's defaults: 100 MiB, 2 passes, 8 lanes).
 */
const MAX_ARGON2_MEMORY_KIB = 256 * 1024;
const MAX_ARGON2_TIME = 16;
const MAX_ARGON2_LANES = 16;

/** Django's Argon2PasswordHasher: `argon2` followed by the standard encoded hash (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`). */
async function verifyDjangoArgon2(password: string, stored: string): Promise<boolean> {
  const encoded = stored.slice("argon2".length);
  const cost = /^\$argon2(?:id|i|d)\$(?:v=\d+\$)?m=(\d+),t=(\d+),p=(\d+)\$/.exec(encoded);
  if (!cost || Number(cost[1]) > MAX_ARGON2_MEMORY_KIB || Number(cost[2]) > MAX_ARGON2_TIME || Number(cost[3]) > MAX_ARGON2_LANES) return verifyPassword(password, null);
  try {
    return await oneHash(() => argon2Verify(encoded, password));
  } catch {
    return false;
  }
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
