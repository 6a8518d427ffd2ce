import { expect } from "vitest";
import type { Json } from "../harness/client.js";
import type { TestServer } from "../harness/server.js";
import { createChannels, sendDirect, sendStream } from "../api/messages-fixtures.js";
import { uploadEmoji } from "../api/realm-emoji-helpers.js";

/**
 * Gives hamlet's organisation one of everything a client decodes at start-up, so that the lists
 * of the register response are not empty: channels, unread channel messages, direct and group
 * direct messages, a mention, a starred message, a custom profile field with a value, a custom
 * emoji, a user group, a status, a topic visibility setting, a muted user and a presence.
 */
export async function populate(server: TestServer): Promise<void> {
  const ok = async (res: Promise<{ status: number; body: Json }>) => {
    const done = await res;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    return done.body;
  };
  const { othello, cordelia } = server.users;
  const channels = await createChannels(server);
  await sendStream(server, "othello", "Verona", "greetings", "hello @**King Hamlet**");
  const starred = await sendStream(server, "cordelia", "Denmark", "plans", "a plan");
  await sendDirect(server, "othello", ["hamlet"], "psst");
  await sendDirect(server, "cordelia", ["hamlet", "othello"], "all of us");
  await ok(server.as("hamlet").post("/messages/flags", { messages: [starred], op: "add", flag: "starred" }));
  const field = await ok(server.as("iago").post("/realm/profile_fields", { name: "Title", field_type: 1 }));
  // Zulip's OpenAPI document leaves PATCH /users/me/profile_data out: no response validation.
  await ok(server.as("hamlet").patch("/users/me/profile_data", { data: [{ id: field.id, value: "Prince" }] }, { validate: false }));
  await ok(uploadEmoji(server, "iago", "party_parrot"));
  // Zulip 11's document requires the group_id that answer gained after level 277: no response validation.
  await ok(server.as("iago").post("/user_groups/create", { name: "Players", description: "Actors", members: [othello.id, cordelia.id] }, { validate: false }));
  await ok(server.as("othello").post("/users/me/status", { status_text: "on stage", emoji_name: "tada" }));
  await ok(server.as("hamlet").post("/user_topics", { stream_id: channels.verona, topic: "greetings", visibility_policy: 3 }));
  await ok(server.as("hamlet").post("/user_topics", { stream_id: channels.denmark, topic: "gossip", visibility_policy: 1 }));
  await ok(server.as("hamlet").post(`/users/me/muted_users/${server.users.polonius.id}`));
  await ok(server.as("othello").post("/users/me/presence", { status: "active" }));
}
