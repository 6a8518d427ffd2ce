import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "../api/messages-fixtures.js";
import { emojiNamed, uploadEmoji } from "../api/realm-emoji-helpers.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

describe("consistency of /register state and events: custom emoji", () => {
  it("an upload sends the whole dictionary to every user", async () => {
    const events = await checkAction(server, "othello", () => uploadEmoji(server, "hamlet", "green_tick"), { expectEvents: ["realm_emoji"] });
    const tick = await emojiNamed(server, "green_tick");
    expect(events[0]).toEqual({
      id: expect.any(Number),
      type: "realm_emoji",
      op: "update",
      realm_emoji: { [tick.id]: { id: tick.id, name: "green_tick", source_url: tick.source_url, still_url: null, deactivated: false, author_id: server.users.hamlet.id } },
    });
    const guest = await checkAction(server, "polonius", () => uploadEmoji(server, "iago", "red_cross"), { expectEvents: ["realm_emoji"] });
    expect(Object.keys(guest[0].realm_emoji)).toHaveLength(2);
  });

  it("a deactivation keeps the emoji in the dictionary, marked deactivated", async () => {
    const tick = await emojiNamed(server, "green_tick");
    const events = await checkAction(server, "iago", () => server.as("hamlet").delete("/realm/emoji/green_tick"), { expectEvents: ["realm_emoji"] });
    expect(events[0].realm_emoji[tick.id].deactivated).toBe(true);
  });

  it("a status and a reaction with a custom emoji", async () => {
    const cross = await emojiNamed(server, "red_cross");
    const status = await checkAction(server, "hamlet", () => server.as("othello").post("/users/me/status", { emoji_name: "red_cross" }), {
      expectEvents: ["user_status"],
    });
    expect(status[0]).toMatchObject({ emoji_name: "red_cross", emoji_code: cross.id, reaction_type: "realm_emoji" });
    const id = await sendStream(server, "hamlet", "Verona", "t", "react to me");
    const reaction = await checkAction(server, "hamlet", () => server.as("othello").post(`/messages/${id}/reactions`, { emoji_name: "red_cross" }), {
      expectEvents: ["reaction"],
      // Reactions live on messages, which /register does not return.
      changesState: false,
    });
    expect(reaction[0]).toMatchObject({ op: "add", emoji_name: "red_cross", emoji_code: cross.id, reaction_type: "realm_emoji" });
  });
});
