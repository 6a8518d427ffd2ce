/**
 * Creation cost against organisation size: creating a user (the action POST /users runs, without
 * a password: hashing would hide the rest), creating a channel (POST /users/me/subscriptions) and
 * subscribing one of those new users to a channel of its own phase (the same endpoint with
 * principals; it sends the user Notification Bot's direct message), median of several, in an
 * organisation of 100 users, then of 10,000 (built with addBenchMembers), each printed beside its
 * 100-user baseline from the same run. Target: ≤ 1.2×.
 *
 *   npx vite-node bench/creation.ts [large=10000] [samples=15]
 *
 * ROOKERY_BENCH_SHORT=1: 20 and 500 users, 3 samples.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { checkCreateUser } from "../src/actions/users.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { basicAuth } from "./auth.js";
import { addBenchMembers, benchOrganisation } from "./org.js";
import { SHORT, sized } from "./short.js";

const SMALL = SHORT ? 20 : 100;
const LARGE = sized(process.argv[2], 10_000, 500);
const SAMPLES = sized(process.argv[3], 15, 3);

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-creation-"));
  const config = { ...loadConfig({}), port: 0, dataDir, databaseUrl: `sqlite:${path.join(dataDir, "db.sqlite3")}`, logLevel: "warn", rateLimitPerMinute: 0 };
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  try {
    const now = app.ctx.clock.now();
    const [owner] = await benchOrganisation(app, SMALL, now, { asCreated: true });
    if (!owner) throw new Error("no owner");
    const realmId = (await app.ctx.users.get(owner.id))?.realm_id ?? 0;
    const auth = basicAuth(owner.email, owner.key);
    let n = 0;
    const created: number[] = [];
    const createUser = async () => created.push((await checkCreateUser(app.ctx, { realmId, email: `new${++n}@bench.test`, fullName: `New ${n}`, password: null, role: 400 })).id);
    const subscribe = async (name: string, principals?: number[]) => {
      const form: Record<string, string> = { subscriptions: JSON.stringify([{ name }]) };
      if (principals) form.principals = JSON.stringify(principals);
      const res = await app.http.inject({
        method: "POST",
        url: "/api/v1/users/me/subscriptions",
        headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(form).toString(),
      });
      if (res.statusCode !== 200) throw new Error(res.body);
    };
    const createChannel = () => subscribe(`channel ${++n}`);
    /** Subscribes the users this phase created, one a call, to a channel made for the phase. */
    const subscriptions = async (phase: string) => {
      await subscribe(phase);
      const users = created.splice(0);
      return median(() => subscribe(phase, [users.pop()!]));
    };
    const small = { user: await median(createUser), channel: await median(createChannel), subscription: await subscriptions("small phase") };
    const started = performance.now();
    await addBenchMembers(app.ctx, realmId, LARGE - SMALL, now, { asCreated: true, first: SMALL + 1_000_000 });
    console.log(`organisation grown from ${SMALL} to ${LARGE} users in ${((performance.now() - started) / 1000).toFixed(1)} s (addBenchMembers)`);
    const large = { user: await median(createUser), channel: await median(createChannel), subscription: await subscriptions("large phase") };
    console.log(`creating a user:    ${small.user.toFixed(2)} ms at ${SMALL} users, ${large.user.toFixed(2)} ms at ${LARGE} (${(large.user / small.user).toFixed(2)}x; target <= 1.2x)`);
    console.log(`creating a channel: ${small.channel.toFixed(2)} ms at ${SMALL} users, ${large.channel.toFixed(2)} ms at ${LARGE} (${(large.channel / small.channel).toFixed(2)}x; target <= 1.2x)`);
    console.log(`a subscription:     ${small.subscription.toFixed(2)} ms at ${SMALL} users, ${large.subscription.toFixed(2)} ms at ${LARGE} (${(large.subscription / small.subscription).toFixed(2)}x; target <= 1.2x)`);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The median time of SAMPLES runs of `action`, in ms, after two to warm up. */
async function median(action: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 2; i++) await action();
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await action();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(SAMPLES / 2)] ?? 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
