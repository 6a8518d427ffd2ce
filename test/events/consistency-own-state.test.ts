import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "../api/messages-fixtures.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

const star = (id: number, op: "add" | "remove") => server.as("hamlet").post("/messages/flags", { messages: [id], op, flag: "starred" });

describe("consistency of /register state and events: the user's own state", () => {
  it("starring and unstarring change starred_messages", async () => {
    const older = await sendStream(server, "othello", "Verona", "stars", "older");
    const newer = await sendStream(server, "othello", "Verona", "stars", "newer");
    await star(newer, "add");
    const events = await checkAction(server, "hamlet", () => star(older, "add"), { expectEvents: ["update_message_flags"] });
    expect(events[0]).toMatchObject({ op: "add", flag: "starred", messages: [older] });
    await checkAction(server, "hamlet", () => star(newer, "remove"), { expectEvents: ["update_message_flags"] });
    const fresh = await server.as("hamlet").post("/register", { fetch_event_types: ["starred_messages"] });
    expect(fresh.body.starred_messages).toEqual([older]);
  });

  it("deleting a starred message takes it out of starred_messages", async () => {
    const id = await sendStream(server, "othello", "Verona", "stars", "doomed");
    // Not the newest message: what a deletion does to max_message_id is not this test's subject.
    await sendStream(server, "othello", "Verona", "stars", "survivor");
    await star(id, "add");
    await checkAction(server, "hamlet", () => server.as("iago").delete(`/messages/${id}`), { expectEvents: ["delete_message"] });
  });

  it("a change of the user's own role changes the role flags and the permissions", async () => {
    const { hamlet } = server.users;
    const toGuest = await checkAction(server, "hamlet", () => server.as("desdemona").patch(`/users/${hamlet.id}`, { role: 600 }));
    expect(toGuest.find((e: Json) => e.type === "realm_user").person).toEqual({ user_id: hamlet.id, role: 600 });
    const guest = await server.as("hamlet").post("/register", { fetch_event_types: ["realm_user"] });
    expect(guest.body).toMatchObject({ is_guest: true, can_create_streams: false, can_subscribe_other_users: false, can_invite_others_to_realm: false });
    await checkAction(server, "hamlet", () => server.as("desdemona").patch(`/users/${hamlet.id}`, { role: 300 }));
    await checkAction(server, "hamlet", () => server.as("desdemona").patch(`/users/${hamlet.id}`, { role: 200 }));
    await checkAction(server, "hamlet", () => server.as("desdemona").patch(`/users/${hamlet.id}`, { role: 400 }));
    const member = await server.as("hamlet").post("/register", { fetch_event_types: ["realm_user"] });
    expect(member.body).toMatchObject({ is_guest: false, is_admin: false, is_moderator: false, can_create_streams: true });
  });

  it("an administrator who becomes a member keeps only their own bots in realm_bots", async () => {
    const { iago } = server.users;
    const before = await server.as("iago").post("/register", { fetch_event_types: ["realm_bot"] });
    expect(before.body.realm_bots).toHaveLength(1);
    await checkAction(server, "iago", () => server.as("desdemona").patch(`/users/${iago.id}`, { role: 400 }), { eventTypes: ["realm_user", "realm_bot"] });
    await server.as("desdemona").patch(`/users/${iago.id}`, { role: 200 });
  });

  it("a change of the user's own name changes full_name", async () => {
    await checkAction(server, "hamlet", () => server.as("hamlet").patch("/settings", { full_name: "Prince Hamlet" }), { eventTypes: ["realm_user"] });
    const fresh = await server.as("hamlet").post("/register", { fetch_event_types: ["realm_user"] });
    expect(fresh.body.full_name).toBe("Prince Hamlet");
  });

  it("renaming a bot changes realm_bots for its owner", async () => {
    const { bot } = server.users;
    const renamed = await checkAction(server, "hamlet", () => server.as("iago").patch(`/users/${bot.id}`, { full_name: "Hamlet's helper" }), {
      eventTypes: ["realm_user", "realm_bot"],
    });
    expect(renamed.find((e: Json) => e.type === "realm_bot").bot).toEqual({ user_id: bot.id, full_name: "Hamlet's helper" });
    const fresh = await server.as("hamlet").post("/register", { fetch_event_types: ["realm_bot"] });
    expect(fresh.body.realm_bots).toMatchObject([{ user_id: bot.id, full_name: "Hamlet's helper", is_active: true }]);
    // A bot's deactivation (with its owner's) is checked for an administrator in consistency-users.
  });
});
