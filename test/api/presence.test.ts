import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const now = () => Math.floor(server.clock.now() / 1000);
const ping = (who: "hamlet" | "othello" | "cordelia" | "iago", params: Record<string, string | number | boolean>) =>
  server.as(who).post("/users/me/presence", params);

describe("POST /users/me/presence", () => {
  it("refuses a missing or unknown status and bots", async () => {
    expect((await ping("hamlet", {})).body).toEqual(error("Missing 'status' argument", "REQUEST_VARIABLE_MISSING", { var_name: "status" }));
    const bad = await ping("hamlet", { status: "away" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(error("Invalid status: away"));
    const bot = await server.as("bot").post("/users/me/presence", { status: "active" });
    expect(bot.body).toEqual(error("This endpoint does not accept bot requests."));
    expect((await ping("hamlet", { status: "active", last_update_id: "x" })).body).toEqual(error("last_update_id is not valid JSON"));
  });

  it("ping_only answers nothing but records the ping", async () => {
    const res = await ping("iago", { status: "active", ping_only: true });
    expect(res.body).toEqual(success());
  });

  it("walks a user from active to idle to offline as the clock moves", async () => {
    const t0 = now();
    const first = await ping("hamlet", { status: "active", slim_presence: true });
    expect(first.body.server_timestamp).toBe(server.clock.now() / 1000);
    expect(first.body.presences[String(server.users.hamlet.id)]).toEqual({ active_timestamp: t0, idle_timestamp: t0 });
    const look = async () => (await server.as("othello").get(`/users/${server.users.hamlet.id}/presence`)).body.presence;
    expect(await look()).toEqual({ aggregated: { status: "active", timestamp: t0 }, website: { status: "active", timestamp: t0 } });

    server.clock.advance(100);
    // The app is open but unused: the client reports idle; the connection time moves, the activity time stays.
    const idle = await ping("hamlet", { status: "idle", slim_presence: true });
    expect(idle.body.presences[String(server.users.hamlet.id)]).toEqual({ active_timestamp: t0, idle_timestamp: t0 + 100 });
    expect(await look()).toEqual({ aggregated: { status: "idle", timestamp: t0 + 100 }, website: { status: "idle", timestamp: t0 + 100 } });

    server.clock.advance(150);
    expect(await look()).toEqual({ aggregated: { status: "idle", timestamp: t0 + 100 }, website: { status: "idle", timestamp: t0 + 100 } });
    server.clock.advance(60);
    // More than 200 s (OFFLINE_THRESHOLD_SECS) after the last connection: offline.
    expect(await look()).toEqual({ aggregated: { status: "offline", timestamp: t0 + 100 }, website: { status: "idle", timestamp: t0 + 100 } });

    const back = await ping("hamlet", { status: "active", slim_presence: true });
    expect(back.body.presences[String(server.users.hamlet.id)]).toEqual({ active_timestamp: t0 + 310, idle_timestamp: t0 + 310 });
    expect((await look()).aggregated).toEqual({ status: "active", timestamp: t0 + 310 });
  });

  it("moves stored times only when at least 55 s newer", async () => {
    const before = await ping("cordelia", { status: "active", last_update_id: -1 });
    const id = before.body.presence_last_update_id;
    server.clock.advance(30);
    const again = await ping("cordelia", { status: "active", last_update_id: id });
    expect(again.body.presences).toEqual({});
    expect(again.body.presence_last_update_id).toBe(id);
    server.clock.advance(30);
    const later = await ping("cordelia", { status: "active", last_update_id: id });
    expect(Object.keys(later.body.presences)).toEqual([String(server.users.cordelia.id)]);
    expect(later.body.presence_last_update_id).toBe(id + 1);
  });

  it("answers only what changed since the client's last_update_id", async () => {
    server.clock.advance(600);
    const start = await ping("othello", { status: "active", last_update_id: -1 });
    const all = Object.keys(start.body.presences).map(Number).sort((a, b) => a - b);
    const { hamlet, othello, cordelia, iago } = server.users;
    expect(all).toEqual([iago.id, hamlet.id, othello.id, cordelia.id].sort((a, b) => a - b));
    const seen: number = start.body.presence_last_update_id;

    const nothing = await ping("othello", { status: "active", last_update_id: seen });
    expect(nothing.body).toEqual(success({ presences: {}, server_timestamp: server.clock.now() / 1000, presence_last_update_id: seen }));

    await ping("hamlet", { status: "active", ping_only: true });
    const one = await ping("othello", { status: "active", last_update_id: seen });
    expect(one.body.presences).toEqual({ [String(hamlet.id)]: { active_timestamp: now(), idle_timestamp: now() } });
    expect(one.body.presence_last_update_id).toBe(seen + 1);
  });

  it("answers changes since any id after many changes, and leaves out a user deactivated meanwhile", async () => {
    const { hamlet, cordelia, iago } = server.users;
    const others = ["hamlet", "cordelia", "iago"] as const;
    // A minute apart, each ping is a change: 40 rounds of 3 fill several blocks of kept answer text.
    let roundStart = (await ping("othello", { status: "active", last_update_id: -1 })).body.presence_last_update_id as number;
    for (let round = 0; round < 40; round++) {
      server.clock.advance(60);
      for (const who of others) await ping(who, { status: "active", ping_only: true });
      const res = await ping("othello", { status: "idle", slim_presence: true, last_update_id: roundStart });
      const t = now();
      expect(res.body.presences).toEqual({
        [String(hamlet.id)]: { active_timestamp: t, idle_timestamp: t },
        [String(cordelia.id)]: { active_timestamp: t, idle_timestamp: t },
        [String(iago.id)]: { active_timestamp: t, idle_timestamp: t },
        [String(server.users.othello.id)]: expect.objectContaining({ idle_timestamp: t }),
      });
      expect(res.body.presence_last_update_id).toBe(roundStart + 4);
      // Since hamlet's change: the other two and othello.
      const later = await ping("othello", { status: "idle", last_update_id: roundStart + 1 });
      expect(Object.keys(later.body.presences).sort()).toEqual([cordelia.id, iago.id, server.users.othello.id].map(String).sort());
      expect(later.body.presence_last_update_id).toBe(roundStart + 4);
      // Since the first id: the whole log, through its whole blocks, as the full answer has it.
      const full = await ping("othello", { status: "idle", slim_presence: true });
      const sinceFirst = await ping("othello", { status: "idle", last_update_id: 1 });
      expect(sinceFirst.body.presences).toEqual(full.body.presences);
      expect(sinceFirst.body.presence_last_update_id).toBe(full.body.presence_last_update_id);
      roundStart += 4;
    }
    expect((await server.as("iago").delete(`/users/${cordelia.id}`)).status).toBe(200);
    const without = await ping("othello", { status: "idle", slim_presence: true, last_update_id: roundStart - 4 });
    expect(Object.keys(without.body.presences).sort()).toEqual([hamlet.id, iago.id, server.users.othello.id].map(String).sort());
    expect(without.body.presence_last_update_id).toBe(roundStart);
    expect((await server.as("iago").post(`/users/${cordelia.id}/reactivate`)).status).toBe(200);
  });

  it("answers the legacy format without slim_presence or last_update_id", async () => {
    const res = await ping("othello", { status: "active" });
    const entry = res.body.presences[server.users.hamlet.email];
    expect(entry).toEqual({
      aggregated: { client: "website", status: "active", timestamp: now() },
      website: { client: "website", status: "active", timestamp: now(), pushable: false },
    });
    expect(res.body.presences[String(server.users.hamlet.id)]).toBeUndefined();
    expect(typeof res.body.presence_last_update_id).toBe("number");
  });

  it("records nothing for a user who turned presence off", async () => {
    await server.as("cordelia").patch("/settings", { presence_enabled: false });
    const mine = await ping("cordelia", { status: "active", slim_presence: true });
    const entry = mine.body.presences[String(server.users.cordelia.id)];
    // The idle entry written when presence was turned off, dated past the offline threshold.
    expect(entry.idle_timestamp).toBe(now() - 320);
    server.clock.advance(120);
    const later = await ping("cordelia", { status: "active", slim_presence: true });
    expect(later.body.presences[String(server.users.cordelia.id)]).toEqual(entry);
    await server.as("cordelia").patch("/settings", { presence_enabled: true });
    const on = await server.as("othello").get(`/users/${server.users.cordelia.id}/presence`);
    expect(on.body.presence.aggregated).toEqual({ status: "active", timestamp: now() });
  });
});

describe("GET /users/{user_id_or_email}/presence", () => {
  it("accepts an email", async () => {
    const res = await server.as("iago").get(`/users/${server.users.hamlet.email}/presence`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.presence)).toEqual(["aggregated", "website"]);
  });

  it("refuses bots, unknown users and users with no data", async () => {
    expect((await server.as("iago").get(`/users/${server.users.bot.id}/presence`)).body).toEqual(error("Presence is not supported for bot users."));
    expect((await server.as("iago").get("/users/99999/presence")).body).toEqual(error("No such user"));
    expect((await server.as("iago").get("/users/nobody@zulip.com/presence")).body).toEqual(error("No such user"));
    const res = await server.as("iago").get(`/users/${server.users.shiva.email}/presence`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(`No presence data for ${server.users.shiva.email}`));
  });
});

describe("GET /realm/presence", () => {
  it("lists the realm in the legacy format, without bots", async () => {
    const res = await server.as("polonius").get("/realm/presence");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["msg", "presences", "result", "server_timestamp"]);
    expect(Object.keys(res.body.presences)).toContain(server.users.hamlet.email);
    expect(res.body.presences[server.users.hamlet.email].website.client).toBe("website");
  });

  it("leaves out rows older than 14 days", async () => {
    server.clock.advance(15 * 86400);
    const res = await server.as("polonius").get("/realm/presence");
    expect(res.body.presences).toEqual({});
  });
});
