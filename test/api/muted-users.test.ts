import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function mutedList(who: "hamlet" | "cordelia"): Promise<unknown> {
  const res = await server.as(who).post("/register", { fetch_event_types: ["muted_users"], client_capabilities: { notification_settings_null: true } });
  return res.body.muted_users;
}

/** A direct message from `senderId` to `userId`, unread for the recipient (flags 0), inserted as the messages area stores it. */
async function unreadMessage(senderId: number, userId: number): Promise<number> {
  return server.app.ctx.store.write(async (db) => {
    const ids = [senderId, userId].sort((a, b) => a - b).join(",");
    const { id } = await db
      .insertInto("message")
      .values({ realm_id: server.users.hamlet.realm_id, sender_id: senderId, stream_id: null, topic: "", dm_key: ids, content: "hi", rendered_content: "<p>hi</p>", date_sent: server.clock.now(), last_edit_time: null, edit_history: null, has_link: 0, has_image: 0, has_attachment: 0, is_me_message: 0, client: "test" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.insertInto("user_message").values([{ user_id: userId, message_id: id, flags: 0 }, { user_id: senderId, message_id: id, flags: 1 }]).execute();
    return id;
  });
}

describe("POST /users/me/muted_users/{muted_user_id}", () => {
  it("refuses muting oneself and unknown users", async () => {
    const self = await server.as("hamlet").post(`/users/me/muted_users/${server.users.hamlet.id}`);
    expect(self.status).toBe(400);
    expect(self.body).toEqual(error("Cannot mute self"));
    expect((await server.as("hamlet").post("/users/me/muted_users/99999")).body).toEqual(error("No such user"));
  });

  it("mutes, marks the target's messages read, then refuses a second mute", async () => {
    const message = await unreadMessage(server.users.othello.id, server.users.hamlet.id);
    const res = await server.as("hamlet").post(`/users/me/muted_users/${server.users.othello.id}`);
    expect(res.body).toEqual(success());
    const row = await server.app.ctx.db.selectFrom("user_message").select("flags").where("user_id", "=", server.users.hamlet.id).where("message_id", "=", message).executeTakeFirst();
    expect(row?.flags).toBe(1);
    expect(await mutedList("hamlet")).toEqual([{ id: server.users.othello.id, timestamp: Math.floor(server.clock.now() / 1000) }]);
    expect((await server.as("hamlet").post(`/users/me/muted_users/${server.users.othello.id}`)).body).toEqual(error("User already muted"));
  });

  it("mutes bots and deactivated users", async () => {
    expect((await server.as("cordelia").post(`/users/me/muted_users/${server.users.bot.id}`)).body).toEqual(success());
    server.clock.advance(1);
    await server.as("iago").delete(`/users/${server.users.shiva.id}`);
    expect((await server.as("cordelia").post(`/users/me/muted_users/${server.users.shiva.id}`)).body).toEqual(success());
    await server.as("iago").post(`/users/${server.users.shiva.id}/reactivate`);
    expect(await mutedList("cordelia")).toEqual([
      { id: server.users.bot.id, timestamp: expect.any(Number) },
      { id: server.users.shiva.id, timestamp: expect.any(Number) },
    ]);
  });

  it("is allowed to guests", async () => {
    expect((await server.as("polonius").post(`/users/me/muted_users/${server.users.hamlet.id}`)).body).toEqual(success());
  });
});

describe("DELETE /users/me/muted_users/{muted_user_id}", () => {
  it("unmutes; the messages stay read", async () => {
    const res = await server.as("hamlet").delete(`/users/me/muted_users/${server.users.othello.id}`);
    expect(res.body).toEqual(success());
    expect(await mutedList("hamlet")).toEqual([]);
  });

  it("refuses a user who is not muted, and unknown users", async () => {
    expect((await server.as("hamlet").delete(`/users/me/muted_users/${server.users.othello.id}`)).body).toEqual(error("User is not muted"));
    expect((await server.as("hamlet").delete("/users/me/muted_users/99999")).body).toEqual(error("No such user"));
  });
});
