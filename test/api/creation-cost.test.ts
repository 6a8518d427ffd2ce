import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBenchMembers } from "../../bench/org.js";
import { checkCreateUser } from "../../src/actions/users.js";
import type { Commit } from "../../src/events/changes.js";
import { startServer, type TestServer } from "../harness/server.js";

// Creating a user or a channel costs the same in an organisation of 100 as in one of 5,000: no
// whole-organisation read, and events every user receives go out as one realm-wide entry.

let server: TestServer;
let created = 0;
const commits: Commit[] = [];
beforeAll(async () => {
  server = await startServer();
  server.app.ctx.bus.subscribe((commit) => void commits.push(commit));
});
afterAll(() => server.stop());

/** How many user ids the commits of `action` list as recipients (realm-wide entries count their exceptions). */
async function listedRecipients(action: () => Promise<unknown>): Promise<{ entries: number; listed: number }> {
  commits.length = 0;
  await action();
  const events = commits.flatMap((c) => c.events);
  return { entries: events.length, listed: events.reduce((n, e) => n + e.userIds.length + (e.realm?.except.length ?? 0), 0) };
}

/** The median of `times` runs of `action`, in ms, after one run to warm up. */
async function medianMs(times: number, action: () => Promise<unknown>): Promise<number> {
  await action();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await action();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)] ?? 0;
}

const createUser = () => {
  created++;
  return checkCreateUser(server.app.ctx, { realmId: server.users.iago.realm_id, email: `new${created}@zulip.com`, fullName: `New ${created}`, password: null, role: 400 });
};
const createUserOverHttp = async () => {
  created++;
  const res = await server.as("iago").post("/users", { email: `web${created}@zulip.com`, password: "s3cret-pass", full_name: `Web ${created}` });
  expect(res.status).toBe(200);
};
const createChannel = async () => {
  created++;
  const res = await server.as("iago").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: `channel ${created}` }]) });
  expect(res.status).toBe(200);
};

describe("creation cost and organisation size", () => {
  it("a user and a channel cost the same work and time at 100 users as at 5,000", async () => {
    const realmId = server.users.iago.realm_id;
    const now = server.app.ctx.clock.now();
    const fixtures = (await server.as("iago").get("/users")).body.members.length as number;
    await addBenchMembers(server.app.ctx, realmId, 100 - fixtures, now, { asCreated: true });
    const small = {
      user: await listedRecipients(createUserOverHttp),
      channel: await listedRecipients(createChannel),
      userMs: await medianMs(9, createUser),
      channelMs: await medianMs(9, createChannel),
    };
    await addBenchMembers(server.app.ctx, realmId, 4_900, now, { asCreated: true, first: 1_000 });
    expect((await server.as("iago").get("/users")).body.members.length).toBeGreaterThanOrEqual(5_000);
    const large = {
      user: await listedRecipients(createUserOverHttp),
      channel: await listedRecipients(createChannel),
      userMs: await medianMs(9, createUser),
      channelMs: await medianMs(9, createChannel),
    };
    // The same events, and no user id listed per member of the organisation.
    expect(large.user).toEqual(small.user);
    expect(large.channel).toEqual(small.channel);
    expect(small.user.listed).toBeLessThan(20);
    console.info(`creation at 100 and 5,000 users: user ${small.userMs.toFixed(1)} / ${large.userMs.toFixed(1)} ms, channel ${small.channelMs.toFixed(1)} / ${large.channelMs.toFixed(1)} ms`);
    expect(large.userMs).toBeLessThan(small.userMs * 1.5);
    expect(large.channelMs).toBeLessThan(small.channelMs * 1.5);
  }, 120_000);
});
