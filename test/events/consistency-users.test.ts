import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import type { Json } from "../harness/client.js";
import { checkAction } from "./check-action.js";

const only = (events: Json[], type: string) => events.filter((e) => e.type === type);

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe("consistency of /register state and events: users", () => {
  it("creating a user (POST /users)", async () => {
    const events = await checkAction(
      server,
      "hamlet",
      () => server.as("iago").post("/users", { email: "newbie@zulip.com", password: "pw-123456", full_name: "New Bie" }),
    );
    expect(only(events, "realm_user")).toHaveLength(1);
    expect(only(events, "realm_user")[0].person).toMatchObject({ email: "newbie@zulip.com", full_name: "New Bie", is_active: true });
  });

  it("changing a full name (PATCH /users/{id})", async () => {
    const id = server.users.othello.id;
    const events = await checkAction(server, "hamlet", () => server.as("iago").patch(`/users/${id}`, { full_name: "Othello II" }), {
      expectEvents: ["realm_user:update"],
    });
    expect(events[0].person).toEqual({ user_id: id, full_name: "Othello II" });
  });

  it("changing a role", async () => {
    const id = server.users.cordelia.id;
    const events = await checkAction(server, "hamlet", () => server.as("desdemona").patch(`/users/${id}`, { role: 300 }));
    expect(only(events, "realm_user").map((e) => e.person)).toEqual([{ user_id: id, role: 300 }]);
  });

  it("deactivating a user, then reactivating them", async () => {
    const id = server.users.othello.id;
    const off = await checkAction(server, "hamlet", () => server.as("iago").delete(`/users/${id}`));
    expect(only(off, "realm_user").map((e) => e.person)).toEqual([{ user_id: id, is_active: false }]);
    const on = await checkAction(server, "hamlet", () => server.as("iago").post(`/users/${id}/reactivate`));
    expect(only(on, "realm_user").map((e) => e.person)).toEqual([{ user_id: id, is_active: true }]);
  });

  it("deactivating a bot's owner deactivates the bot first, with realm_bot for administrators", async () => {
    const { hamlet, bot } = server.users;
    const events = await checkAction(server, "iago", () => server.as("iago").delete(`/users/${hamlet.id}`), {
      eventTypes: ["realm_user", "realm_bot"],
    });
    expect(events.map((e) => [e.type, e.person ?? e.bot])).toEqual([
      ["realm_user", { user_id: bot.id, is_active: false }],
      ["realm_bot", { user_id: bot.id, is_active: false }],
      ["realm_user", { user_id: hamlet.id, is_active: false }],
    ]);
    await server.as("iago").post(`/users/${hamlet.id}/reactivate`);
  });

  it("a user deactivating their own account (DELETE /users/me)", async () => {
    const id = server.users.shiva.id;
    const events = await checkAction(server, "hamlet", () => server.as("shiva").delete("/users/me"));
    expect(only(events, "realm_user").map((e) => e.person)).toEqual([{ user_id: id, is_active: false }]);
    await server.as("iago").post(`/users/${id}/reactivate`);
  });

  it("with a narrowed event_types, only those types arrive and only that state is fetched", async () => {
    const id = server.users.shiva.id;
    await checkAction(server, "polonius", () => server.as("iago").patch(`/users/${id}`, { full_name: "Shiva Two" }), {
      eventTypes: ["realm_user"],
      expectEvents: 1,
    });
  });

  it("typing changes no state and still produces its event", async () => {
    const events = await checkAction(server, "hamlet", () => server.as("cordelia").post("/typing", { op: "start", to: [server.users.hamlet.id] }), {
      changesState: false,
      expectEvents: ["typing:start"],
    });
    expect(events[0]).toMatchObject({
      message_type: "direct",
      sender: { user_id: server.users.cordelia.id, email: "cordelia@zulip.com" },
      recipients: [
        { user_id: server.users.hamlet.id, email: "hamlet@zulip.com" },
        { user_id: server.users.cordelia.id, email: "cordelia@zulip.com" },
      ],
    });
  });
});
