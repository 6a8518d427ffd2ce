import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";

// Zulip's OpenAPI document does not describe the /bots endpoints: their answers are checked here, not against it.
const raw = { validate: false };
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const create = (who: FixtureName, params: Record<string, Json>) => server.as(who).post("/bots", params, raw);
const queueOf = async (who: FixtureName) => (await server.as(who).post("/register", { event_types: ["realm_bot"], fetch_event_types: [] })).body.queue_id as string;
const eventsOf = async (who: FixtureName, queueId: string): Promise<Record<string, unknown>[]> =>
  (await server.as(who).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events.filter((e: { type: string }) => e.type !== "heartbeat");
const realmBots = async (who: FixtureName) => (await server.as(who).post("/register", { fetch_event_types: ["realm_bot"] })).body.realm_bots as Record<string, unknown>[];
const host = () => new URL(server.url).hostname;

describe("POST /bots", () => {
  it("creates a generic bot owned by the caller; its owner and the administrators hear of it, with its API key", async () => {
    const [hamletQueue, iagoQueue, othelloQueue] = [await queueOf("hamlet"), await queueOf("iago"), await queueOf("othello")];
    const res = await create("hamlet", { full_name: "Yorick", short_name: "yorick" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ user_id: expect.any(Number), api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/), avatar_url: expect.any(String), default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false }));
    const bot = { email: `yorick-bot@${host()}`, user_id: res.body.user_id, full_name: "Yorick", bot_type: 1, is_active: true, api_key: res.body.api_key, default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false, owner_id: server.users.hamlet.id, avatar_url: expect.any(String), services: [] };
    for (const queue of [["hamlet", hamletQueue], ["iago", iagoQueue]] as const) {
      expect(await eventsOf(queue[0], queue[1])).toEqual([{ id: 0, type: "realm_bot", op: "add", bot }]);
    }
    expect(await eventsOf("othello", othelloQueue)).toEqual([]);
    expect((await realmBots("hamlet")).find((b) => b.user_id === res.body.user_id)).toEqual(bot);
    expect((await realmBots("othello")).find((b) => b.user_id === res.body.user_id)).toBeUndefined();
    // The bot is a user everyone sees, and its key works.
    const seen = (await server.as("othello").get(`/users/${res.body.user_id}`)).body.user;
    expect(seen).toMatchObject({ user_id: res.body.user_id, is_bot: true, bot_type: 1, bot_owner_id: server.users.hamlet.id, full_name: "Yorick" });
    const asBot = await fetch(`${server.url}/api/v1/users/me`, { headers: { authorization: "Basic " + Buffer.from(`yorick-bot@${host()}:${res.body.api_key}`).toString("base64") } });
    expect(((await asBot.json()) as { user_id: number }).user_id).toBe(res.body.user_id);
    expect((await server.as("hamlet").get("/bots", {}, raw)).body).toEqual(
      success({ bots: [expect.objectContaining({ username: "default-bot@zulip.com", full_name: "Hamlet's bot" }), { username: `yorick-bot@${host()}`, full_name: "Yorick", api_key: res.body.api_key, avatar_url: expect.any(String), default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false }] }),
    );
    expect((await server.as("othello").get("/bots", {}, raw)).body).toEqual(success({ bots: [] }));
  });

  it("creates an incoming-webhook bot", async () => {
    const res = await create("othello", { full_name: "Ghost hook", short_name: "ghost", bot_type: "2" });
    expect(res.body).toMatchObject({ result: "success" });
    expect((await server.as("othello").get(`/users/${res.body.user_id}`)).body.user).toMatchObject({ bot_type: 2, email: `ghost-bot@${host()}` });
  });

  it("refuses, with Zulip's messages: a blank short name or name, a taken username or name, another type, a guest", async () => {
    expect((await create("hamlet", { full_name: "Blank", short_name: "  " })).body).toEqual(error("Bad name or username"));
    expect((await create("hamlet", { full_name: " ", short_name: "blank" })).body).toEqual(error("Name must not be empty!"));
    expect((await create("hamlet", { full_name: "Other Yorick", short_name: "yorick" })).body).toEqual(error("Username already in use"));
    expect((await create("hamlet", { full_name: "yorick", short_name: "yorick2" })).body).toEqual(error("Name is already in use!"));
    expect((await create("hamlet", { full_name: "Outgoing", short_name: "outgoing", bot_type: "3" })).body).toEqual(error("Invalid bot type"));
    expect((await create("hamlet", { full_name: "Nobody", short_name: "nobody", bot_type: "9" })).body).toEqual(error("Invalid bot type"));
    expect((await create("polonius", { full_name: "Spy", short_name: "spy" })).body).toEqual(error("Not allowed for guest users"));
    expect((await create("hamlet", { short_name: "x" })).body).toEqual(error("Missing 'full_name' argument", "REQUEST_VARIABLE_MISSING", { var_name: "full_name" }));
  });

  it("follows bot_creation_policy: 2 keeps generic bots to administrators, 3 all bots", async () => {
    expect((await server.as("iago").patch("/realm", { bot_creation_policy: 2 })).body).toMatchObject({ result: "success" });
    expect((await create("cordelia", { full_name: "Generic", short_name: "generic" })).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    expect((await create("cordelia", { full_name: "Hook", short_name: "hook", bot_type: "2" })).body).toMatchObject({ result: "success" });
    expect((await server.as("iago").patch("/realm", { bot_creation_policy: 3 })).body).toMatchObject({ result: "success" });
    expect((await create("cordelia", { full_name: "Hook two", short_name: "hook2", bot_type: "2" })).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    expect((await create("iago", { full_name: "Admin's bot", short_name: "admins" })).body).toMatchObject({ result: "success" });
    expect((await server.as("iago").patch("/realm", { bot_creation_policy: 1 })).body).toMatchObject({ result: "success" });
  });
});

describe("POST /bots/{bot_id}/api_key/regenerate and DELETE /bots/{bot_id}", () => {
  it("gives the bot a new key (the old one stops working) and deactivates it, for its owner or an administrator only", async () => {
    const made = await create("hamlet", { full_name: "Osric", short_name: "osric" });
    const id = made.body.user_id as number;
    const iagoQueue = await queueOf("iago");
    expect((await server.as("othello").post(`/bots/${id}/api_key/regenerate`, {}, raw)).body).toEqual(error("Insufficient permission"));
    expect((await server.as("othello").delete(`/bots/${id}`, {}, raw)).body).toEqual(error("Insufficient permission"));
    expect((await server.as("hamlet").post(`/bots/${server.users.othello.id}/api_key/regenerate`, {}, raw)).body).toEqual(error("No such bot"));
    expect((await server.as("hamlet").delete(`/bots/999999`, {}, raw)).body).toEqual(error("No such bot"));

    const again = await server.as("hamlet").post(`/bots/${id}/api_key/regenerate`, {}, raw);
    expect(again.body).toEqual(success({ api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) }));
    expect(again.body.api_key).not.toBe(made.body.api_key);
    const old = await fetch(`${server.url}/api/v1/users/me`, { headers: { authorization: "Basic " + Buffer.from(`osric-bot@${host()}:${made.body.api_key}`).toString("base64") } });
    expect(old.status).toBe(401);
    expect(await eventsOf("iago", iagoQueue)).toEqual([{ id: 0, type: "realm_bot", op: "update", bot: { user_id: id, api_key: again.body.api_key } }]);

    expect((await server.as("iago").delete(`/bots/${id}`, {}, raw)).body).toEqual(success());
    expect((await server.as("hamlet").get(`/users/${id}`)).body.user).toMatchObject({ is_active: false });
    expect((await realmBots("hamlet")).find((b) => b.user_id === id)).toMatchObject({ is_active: false });
    expect((await server.as("hamlet").get("/bots", {}, raw)).body.bots.map((b: { full_name: string }) => b.full_name)).not.toContain("Osric");
    // Its owner brings it back through the users endpoint, as in Zulip.
    expect((await server.as("hamlet").post(`/users/${id}/reactivate`)).body).toEqual(success());
    expect((await realmBots("hamlet")).find((b) => b.user_id === id)).toMatchObject({ is_active: true });
  });
});

describe("PATCH /users/{user_id} on a bot", () => {
  it("renames it: everyone hears realm_user update, only its owner and the administrators realm_bot update", async () => {
    const made = await create("hamlet", { full_name: "Rosencrantz", short_name: "rosencrantz" });
    const id = made.body.user_id as number;
    const who: FixtureName[] = ["hamlet", "iago", "desdemona", "othello", "polonius"];
    const queues = new Map<FixtureName, string>();
    for (const name of who) queues.set(name, (await server.as(name).post("/register", { event_types: ["realm_bot", "realm_user"], fetch_event_types: [] })).body.queue_id as string);
    expect((await server.as("iago").patch(`/users/${id}`, { full_name: "Guildenstern" })).body).toEqual(success());
    const person = { id: 0, type: "realm_user", op: "update", person: { user_id: id, full_name: "Guildenstern" } };
    for (const name of ["hamlet", "iago", "desdemona"] as const) {
      expect(await eventsOf(name, queues.get(name)!)).toEqual([person, { id: 1, type: "realm_bot", op: "update", bot: { user_id: id, full_name: "Guildenstern" } }]);
    }
    for (const name of ["othello", "polonius"] as const) expect(await eventsOf(name, queues.get(name)!)).toEqual([person]);
  });
});
