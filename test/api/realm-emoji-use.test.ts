import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "./messages-fixtures.js";
import { emojiNamed, uploadEmoji } from "./realm-emoji-helpers.js";

let server: TestServer;
let parrot: { id: string; source_url: string };
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
  await uploadEmoji(server, "hamlet", "party_parrot");
  parrot = await emojiNamed(server, "party_parrot");
});
afterAll(() => server.stop());

const message = async (id: number) => (await server.as("iago").get(`/messages/${id}`)).body.message;

describe("custom emoji in user status", () => {
  it("is found by name, or accepted with its id and realm_emoji", async () => {
    expect((await server.as("othello").post("/users/me/status", { emoji_name: "party_parrot" })).body).toEqual(success());
    const own = await server.as("iago").get(`/users/${server.users.othello.id}/status`);
    expect(own.body.status).toEqual({ emoji_name: "party_parrot", emoji_code: parrot.id, reaction_type: "realm_emoji" });
    const explicit = await server.as("cordelia").post("/users/me/status", { emoji_name: "party_parrot", emoji_code: parrot.id, reaction_type: "realm_emoji" });
    expect(explicit.body).toEqual(success());
  });

  it.each([
    [{ emoji_name: "party_parrot", emoji_code: "99999", reaction_type: "realm_emoji" }, "Invalid custom emoji."],
    [{ emoji_name: "party_parrot", emoji_code: "abc", reaction_type: "realm_emoji" }, "Invalid custom emoji."],
    [{ emoji_name: "not_party_parrot", emoji_code: "ID", reaction_type: "realm_emoji" }, "Invalid custom emoji name."],
  ])("refuses %j", async (params, msg) => {
    const sent = { ...params, emoji_code: params.emoji_code === "ID" ? parrot.id : params.emoji_code };
    expect((await server.as("cordelia").post("/users/me/status", sent)).body).toEqual(error(msg));
  });
});

describe("custom emoji in reactions", () => {
  it("reacts by name or by id, and removes by id", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "birds", "look");
    expect((await server.as("othello").post(`/messages/${id}/reactions`, { emoji_name: "party_parrot" })).body).toEqual(success());
    const byId = { emoji_name: "party_parrot", emoji_code: parrot.id, reaction_type: "realm_emoji" };
    expect((await server.as("cordelia").post(`/messages/${id}/reactions`, byId)).body).toEqual(success());
    expect((await message(id)).reactions).toEqual([
      { emoji_name: "party_parrot", emoji_code: parrot.id, reaction_type: "realm_emoji", user_id: server.users.othello.id },
      { emoji_name: "party_parrot", emoji_code: parrot.id, reaction_type: "realm_emoji", user_id: server.users.cordelia.id },
    ]);
    expect((await server.as("cordelia").delete(`/messages/${id}/reactions`, { emoji_code: parrot.id, reaction_type: "realm_emoji" })).body).toEqual(success());
    expect((await message(id)).reactions).toHaveLength(1);
  });

  it("refuses a deactivated emoji for new reactions", async () => {
    await uploadEmoji(server, "hamlet", "extinct_bird");
    const extinct = await emojiNamed(server, "extinct_bird");
    await server.as("hamlet").delete("/realm/emoji/extinct_bird");
    const id = await sendStream(server, "hamlet", "Verona", "birds", "extinct");
    const res = await server.as("othello").post(`/messages/${id}/reactions`, { emoji_name: "extinct_bird", emoji_code: extinct.id, reaction_type: "realm_emoji" });
    expect(res.body).toEqual(error("This custom emoji has been deactivated."));
    expect((await server.as("othello").post(`/messages/${id}/reactions`, { emoji_name: "extinct_bird" })).body).toEqual(error("Emoji 'extinct_bird' does not exist"));
  });
});

describe("custom emoji in Markdown", () => {
  it("renders :name: of an active custom emoji as an image, before unicode names", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "render", "hi :party_parrot: and :octopus: and :not_an_emoji:");
    expect((await message(id)).content).toBe(
      `<p>hi <img alt=":party_parrot:" class="emoji" src="${parrot.source_url}" title="party parrot"> and ` +
        `<span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span> and :not_an_emoji:</p>`,
    );
    await uploadEmoji(server, "iago", "octopus");
    const octopus = await emojiNamed(server, "octopus");
    const again = await sendStream(server, "hamlet", "Verona", "render", ":octopus:");
    expect((await message(again)).content).toBe(`<p><img alt=":octopus:" class="emoji" src="${octopus.source_url}" title="octopus"></p>`);
  });

  it("leaves a deactivated custom emoji as text", async () => {
    await uploadEmoji(server, "hamlet", "gone_bird");
    await server.as("hamlet").delete("/realm/emoji/gone_bird");
    const id = await sendStream(server, "hamlet", "Verona", "render", "bye :gone_bird:");
    expect((await message(id)).content).toBe("<p>bye :gone_bird:</p>");
  });
});
