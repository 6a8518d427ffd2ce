import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBenchMembers } from "../../bench/org.js";
import { checkCreateUser } from "../../src/actions/users.js";
import { cpuMark, cpuMsSince } from "../../src/base/cpu-time.js";
import type { Commit } from "../../src/events/changes.js";
import { startServer, type TestServer } from "../harness/server.js";

// Creating a user or a channel costs the same in an organisation of 100 as in one of 5,000: no
// whole-organisation read, and events every user receives go out as one realm-wide entry.

// Two servers, one of each size, measured in turns: a change in the machine's load (another test
// file running beside this one) then weighs on both sizes alike instead of on one phase.

interface Org {
  server: TestServer;
  commits: Commit[];
  created: number;
}
let small: Org;
let large: Org;

async function organisation(members: number): Promise<Org> {
  const server = await startServer();
  const org: Org = { server, commits: [], created: 0 };
  server.app.ctx.bus.subscribe((commit) => void org.commits.push(commit));
  const realmId = server.users.iago.realm_id;
  const fixtures = (await server.as("iago").get("/users")).body.members.length as number;
  await addBenchMembers(server.app.ctx, realmId, members - fixtures, server.app.ctx.clock.now(), { asCreated: true });
  return org;
}
beforeAll(async () => {
  small = await organisation(100);
  large = await organisation(5_000);
}, 60_000);
afterAll(async () => {
  await small.server.stop();
  await large.server.stop();
});

/** How many user ids the commits of `action` list as recipients (realm-wide entries count their exceptions). */
async function listedRecipients(org: Org, action: (org: Org) => Promise<unknown>): Promise<{ entries: number; listed: number }> {
  org.commits.length = 0;
  await action(org);
  const events = org.commits.flatMap((c) => c.events);
  return { entries: events.length, listed: events.reduce((n, e) => n + e.userIds.length + (e.realm?.except.length ?? 0), 0) };
}

/**
 * The medians of `times` runs of `action` in each organisation, taken in turns, in ms of this
 * thread's CPU time (the server runs in it; another process's load moves wall time, not this),
 * after one run each to warm up.
 */
async function medianMs(times: number, action: (org: Org) => Promise<unknown>): Promise<{ small: number; large: number }> {
  await action(small);
  await action(large);
  const samples = { small: [] as number[], large: [] as number[] };
  for (let i = 0; i < times; i++) {
    for (const [name, org] of [["small", small], ["large", large]] as const) {
      const started = cpuMark();
      await action(org);
      samples[name].push(cpuMsSince(started));
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(times / 2)] ?? 0;
  return { small: median(samples.small), large: median(samples.large) };
}

const createUser = (org: Org) => {
  org.created++;
  return checkCreateUser(org.server.app.ctx, { realmId: org.server.users.iago.realm_id, email: `new${org.created}@zulip.com`, fullName: `New ${org.created}`, password: null, role: 400 });
};
const createUserOverHttp = async (org: Org) => {
  org.created++;
  const res = await org.server.as("iago").post("/users", { email: `web${org.created}@zulip.com`, password: "s3cret-pass", full_name: `Web ${org.created}` });
  expect(res.status).toBe(200);
};
const createChannel = async (org: Org) => {
  org.created++;
  const res = await org.server.as("iago").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: `channel ${org.created}` }]) });
  expect(res.status).toBe(200);
};

describe("creation cost and organisation size", () => {
  it("a user and a channel cost the same work and time at 100 users as at 5,000", async () => {
    expect((await small.server.as("iago").get("/users")).body.members.length).toBe(100);
    expect((await large.server.as("iago").get("/users")).body.members.length).toBe(5_000);
    // The same events, and no user id listed per member of the organisation.
    const user = { small: await listedRecipients(small, createUserOverHttp), large: await listedRecipients(large, createUserOverHttp) };
    const channel = { small: await listedRecipients(small, createChannel), large: await listedRecipients(large, createChannel) };
    expect(user.large).toEqual(user.small);
    expect(channel.large).toEqual(channel.small);
    expect(user.small.listed).toBeLessThan(20);
    const userMs = await medianMs(9, createUser);
    const channelMs = await medianMs(9, createChannel);
    console.info(`creation at 100 and 5,000 users: user ${userMs.small.toFixed(1)} / ${userMs.large.toFixed(1)} ms, channel ${channelMs.small.toFixed(1)} / ${channelMs.large.toFixed(1)} ms`);
    expect(userMs.large).toBeLessThan(userMs.small * 1.5);
    expect(channelMs.large).toBeLessThan(channelMs.small * 1.5);
  }, 120_000);

  it("a role change, a deactivation and a reactivation list no recipient per member: realm-wide entries", async () => {
    const changes = async (org: Org) => {
      await createUserOverHttp(org);
      const user = (await org.server.as("iago").get(`/users/web${org.created}@zulip.com`)).body.user;
      const sizes = [];
      for (const change of [
        () => org.server.as("iago").patch(`/users/${user.user_id}`, { role: 300 }),
        () => org.server.as("iago").delete(`/users/${user.user_id}`),
        () => org.server.as("iago").post(`/users/${user.user_id}/reactivate`),
      ]) {
        sizes.push(
          await listedRecipients(org, async () => {
            const res = await change();
            expect(res.status, JSON.stringify(res.body)).toBe(200);
          }),
        );
      }
      return sizes;
    };
    const atSmall = await changes(small);
    const atLarge = await changes(large);
    expect(atLarge).toEqual(atSmall);
    for (const { listed } of atSmall) expect(listed).toBeLessThan(20);
  });

  it("a subscription lists the same recipients at 100 users as at 5,000", async () => {
    const subscribe = async (org: Org) => {
      await createUserOverHttp(org);
      const user = (await org.server.as("iago").get(`/users/web${org.created}@zulip.com`)).body.user;
      return listedRecipients(org, async () => {
        const res = await org.server.as("iago").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "Verona" }]), principals: JSON.stringify([user.user_id]) });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.subscribed).toEqual({ [`web${org.created}@zulip.com`]: ["Verona"] });
      });
    };
    const atSmall = await subscribe(small);
    expect(await subscribe(large)).toEqual(atSmall);
    expect(atSmall.listed).toBeLessThan(20);
  });
});
