import { pbkdf2Sync, randomBytes } from "node:crypto";
import { hash as argon2Hash } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "../../src/base/secrets.js";

/** A hash as Django's PBKDF2 hashers store it: `<algorithm>$<iterations>$<salt>$<base64>`. */
function djangoPbkdf2(password: string, digest: "sha256" | "sha1", iterations: number): string {
  const salt = randomBytes(9).toString("hex");
  const keylen = digest === "sha256" ? 32 : 20;
  return `pbkdf2_${digest}$${iterations}$${salt}$${pbkdf2Sync(password, salt, iterations, keylen, digest).toString("base64")}`;
}

describe("stored password hashes", () => {
  it("reads Rookery's own scrypt hashes, which need no rehash", async () => {
    const stored = await hashPassword("correct horse");
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("wrong horse", stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it("reads Django's pbkdf2_sha256 and pbkdf2_sha1 hashes, and asks for a rehash", async () => {
    for (const digest of ["sha256", "sha1"] as const) {
      const stored = djangoPbkdf2("correct horse", digest, 1000);
      expect(await verifyPassword("correct horse", stored)).toBe(true);
      expect(await verifyPassword("wrong horse", stored)).toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });

  it("reads Django's argon2 hashes", async () => {
    const stored = `argon2${await argon2Hash("correct horse", { memoryCost: 1024, timeCost: 2, parallelism: 1 })}`;
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("wrong horse", stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it("refuses hashes that name a cost beyond the bounds, without paying it", async () => {
    const real = await argon2Hash("correct horse", { memoryCost: 1024, timeCost: 2, parallelism: 1 });
    for (const [from, to] of [["m=1024", "m=4194304"], ["t=2", "t=1000"], ["p=1", "p=255"]] as const) {
      const started = performance.now();
      expect(await verifyPassword("correct horse", `argon2${real.replace(from, to)}`)).toBe(false);
      expect(performance.now() - started).toBeLessThan(2000);
    }
    const tooMany = djangoPbkdf2("correct horse", "sha256", 1).replace(/\$1\$/, "$20000000$");
    expect(await verifyPassword("correct horse", tooMany)).toBe(false);
  });

  it("refuses malformed hashes of each kind", async () => {
    for (const stored of ["pbkdf2_sha256$0$salt$aGFzaA==", "pbkdf2_md5$1000$salt$aGFzaA==", "pbkdf2_sha256$1000$salt$", "argon2$argon2id$nonsense", "argon2$bcrypt$x", "scrypt$only-one-part", ""]) {
      expect(await verifyPassword("correct horse", stored)).toBe(false);
    }
  });
});
