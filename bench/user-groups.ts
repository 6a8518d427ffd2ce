/**
 * GET /user_groups on a realm with many groups, against GET /users/me on the same server (the
 * baseline: authentication plus a tiny answer), alternately in one session with autocannon
 * (20 connections). Also times POST /user_groups/create and POST /user_groups/{id}/members.
 *
 *   npx vite-node bench/user-groups.ts [groups] [users] [seconds-per-run]
 *
 * ROOKERY_BENCH_SHORT=1: 10 groups, 30 users, 1-second runs.
 */
import { checkCreateUser } from "../src/actions/users.js";
import { Role } from "../src/lib/users/roles.js";
import { startServer } from "../test/harness/server.js";
import { basicAuth } from "./auth.js";
import { runUnderServerFlags } from "./server-flags.js";
import { sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

/** The part of autocannon's API used here (the package ships no types). */
type Autocannon = (opts: { url: string; connections: number; duration: number; headers: Record<string, string> }) => Promise<{
  requests: { average: number };
  non2xx: number;
  errors: number;
}>;
const autocannonModule: { default: Autocannon } = await import("autocannon" as string);
const autocannon = autocannonModule.default;

const GROUPS = sized(process.argv[2], 200, 10);
const USERS = sized(process.argv[3], 300, 30);
const SECONDS = sized(process.argv[4], 5, 1);

async function load(url: string, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({ url, connections: 20, duration: SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function main(): Promise<void> {
  const server = await startServer();
  const realmId = server.users.hamlet.realm_id;
  const ids: number[] = [];
  for (let i = 0; i < USERS; i++) {
    const user = await checkCreateUser(server.app.ctx, { realmId, email: `user${i}@bench.example`, fullName: `User ${i}`, password: null, role: Role.MEMBER });
    ids.push(user.id);
  }
  const iago = server.as("iago");
  let t0 = performance.now();
  for (let g = 0; g < GROUPS; g++) {
    const members = ids.slice((g * 7) % USERS, ((g * 7) % USERS) + 20);
    const res = await iago.post("/user_groups/create", { name: `group ${g}`, description: "bench", members }, { validate: false });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  const createMs = (performance.now() - t0) / GROUPS;
  const list = await iago.get("/user_groups", {}, { validate: false });
  const last = list.body.user_groups.at(-1).id as number;
  t0 = performance.now();
  for (let i = 0; i < 100; i++) {
    const user = ids[(i * 13) % USERS] ?? 0;
    await iago.post(`/user_groups/${last}/members`, { add: [user] }, { validate: false });
    await iago.post(`/user_groups/${last}/members`, { delete: [user] }, { validate: false });
  }
  const memberMs = (performance.now() - t0) / 200;
  const iagoRow = server.users.iago;
  const auth = { authorization: basicAuth(iagoRow.delivery_email, iagoRow.api_key) };
  const base: number[] = [];
  const ours: number[] = [];
  for (let round = 0; round < 2; round++) {
    base.push(await load(`${server.url}/api/v1/users/me`, auth));
    ours.push(await load(`${server.url}/api/v1/user_groups`, auth));
  }
  await server.stop();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  console.log(`realm: ${USERS + 8} users, ${GROUPS + 8} groups (20 members each)`);
  console.log(`POST /user_groups/create: ${createMs.toFixed(2)} ms each (sequential)`);
  console.log(`POST /user_groups/{id}/members: ${memberMs.toFixed(2)} ms each (sequential)`);
  console.log(`GET /users/me (baseline): ${median(base).toFixed(0)} req/s`);
  console.log(`GET /user_groups: ${median(ours).toFixed(0)} req/s (${((median(ours) / median(base)) * 100).toFixed(1)}% of baseline)`);
}

await main();
