import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, idsIn, sendDirect, sendStream } from "./messages-fixtures.js";
import { setRealmProps } from "./streams-helpers.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

const raw = async (id: number) => (await server.as("iago").get(`/messages/${id}`)).body;

describe("PATCH /messages/{id}", () => {
  it("edits content, re-renders, and stamps last_edit_timestamp", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "edit", "first");
    server.clock.advance(10);
    const res = await server.as("hamlet").patch(`/messages/${id}`, { content: "**second**" });
    expect(res.body).toEqual(success({ detached_uploads: [] }));
    const got = await raw(id);
    expect(got.raw_content).toBe("**second**");
    expect(got.message.content).toBe("<p><strong>second</strong></p>");
    expect(got.message.last_edit_timestamp).toBe(Math.floor(server.clock.now() / 1000));
  });

  it("empty content becomes (deleted)", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "edit", "x");
    await server.as("hamlet").patch(`/messages/${id}`, { content: "  " });
    expect((await raw(id)).raw_content).toBe("(deleted)");
  });

  it("moves one, later or all messages of a topic", async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await sendStream(server, "hamlet", "Verona", "move me", `m${i}`));
    // The Notification Bot's notices in the new topics are tested in messages-move.test.ts.
    const quiet = { send_notification_to_new_thread: false };
    await server.as("hamlet").patch(`/messages/${ids[3]}`, { topic: "moved one", ...quiet });
    expect(await idsIn(server, "iago", [{ operator: "topic", operand: "moved one" }])).toEqual([ids[3]]);
    await server.as("hamlet").patch(`/messages/${ids[1]}`, { topic: "later", propagate_mode: "change_later", ...quiet });
    expect(await idsIn(server, "iago", [{ operator: "topic", operand: "later" }])).toEqual([ids[1], ids[2]]);
    await server.as("iago").patch(`/messages/${ids[0]}`, { subject: "everything", propagate_mode: "change_all", ...quiet });
    expect(await idsIn(server, "iago", [{ operator: "topic", operand: "everything" }])).toEqual([ids[0]]);
  });

  it.each([
    [{}, "Nothing to change"],
    [{ content: "x", propagate_mode: "change_all" }, "Invalid propagate_mode without topic edit"],
    [{ topic: "   " }, "Topic can't be empty!"],
    [{ propagate_mode: "sideways", content: "x" }, "Invalid propagate_mode"],
  ])("refuses %j", async (params, msg) => {
    const id = await sendStream(server, "hamlet", "Verona", "refuse", "x");
    const res = await server.as("hamlet").patch(`/messages/${id}`, params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("only the sender edits content, within the time limit", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "perm", "x");
    expect((await server.as("othello").patch(`/messages/${id}`, { content: "y" })).body).toEqual(error("You don't have permission to edit this message"));
    server.clock.advance(621);
    expect((await server.as("hamlet").patch(`/messages/${id}`, { content: "y" })).body).toEqual(error("The time limit for editing this message has passed"));
    expect((await server.as("othello").patch(`/messages/${id}`, { topic: "renamed" })).status).toBe(200);
    server.clock.advance(604800);
    expect((await server.as("othello").patch(`/messages/${id}`, { topic: "again" })).body).toEqual(error("The time limit for editing this message's topic has passed."));
    expect((await server.as("shiva").patch(`/messages/${id}`, { topic: "again" })).status).toBe(200);
  });

  it("direct messages have no topics; editing can be turned off", async () => {
    const dm = await sendDirect(server, "hamlet", ["othello"], "x");
    expect((await server.as("hamlet").patch(`/messages/${dm}`, { topic: "t" })).body).toEqual(error("Direct messages cannot have topics."));
    await setRealmProps(server, { allow_message_editing: false });
    expect((await server.as("hamlet").patch(`/messages/${dm}`, { content: "y" })).body).toEqual(error("Your organization has turned off message editing"));
    await setRealmProps(server, { allow_message_editing: true });
  });
});

describe("DELETE /messages/{id}", () => {
  it("administrators delete any message; others by policy", async () => {
    await setRealmProps(server, { delete_own_message_policy: 2 });
    const id = await sendStream(server, "hamlet", "Verona", "delete", "x");
    expect((await server.as("hamlet").delete(`/messages/${id}`)).body).toEqual(error("You don't have permission to delete this message"));
    expect((await server.as("iago").delete(`/messages/${id}`)).body).toEqual(success());
    expect((await server.as("iago").get(`/messages/${id}`)).body).toEqual(error("Invalid message(s)"));
    expect((await server.as("iago").delete(`/messages/${id}`)).body).toEqual(error("Invalid message(s)"));
    await setRealmProps(server, { delete_own_message_policy: 5 });
  });

  it("by Zulip 9's defaults, senders delete their own messages for ten minutes", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "delete", "x");
    expect((await server.as("othello").delete(`/messages/${id}`)).body).toEqual(error("You don't have permission to delete this message"));
    expect((await server.as("hamlet").delete(`/messages/${id}`)).body).toEqual(success());
    const late = await sendStream(server, "hamlet", "Verona", "delete", "y");
    server.clock.advance(601);
    expect((await server.as("hamlet").delete(`/messages/${late}`)).body).toEqual(error("The time limit for deleting this message has passed"));
  });

  it("honours delete_own_message_policy and the time limit", async () => {
    await setRealmProps(server, { delete_own_message_policy: 5, message_content_delete_limit_seconds: 60 });
    const id = await sendStream(server, "hamlet", "Verona", "delete", "x");
    expect((await server.as("othello").delete(`/messages/${id}`)).body).toEqual(error("You don't have permission to delete this message"));
    server.clock.advance(61);
    expect((await server.as("hamlet").delete(`/messages/${id}`)).body).toEqual(error("The time limit for deleting this message has passed"));
    const fresh = await sendStream(server, "hamlet", "Verona", "delete", "y");
    expect((await server.as("hamlet").delete(`/messages/${fresh}`)).body).toEqual(success());
    await setRealmProps(server, { delete_own_message_policy: 5, message_content_delete_limit_seconds: 600 });
  });
});

describe("reactions", () => {
  it("adds, counts votes under the first name, and removes", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "react", "x");
    expect((await server.as("othello").post(`/messages/${id}/reactions`, { emoji_name: "smile" })).body).toEqual(success());
    expect((await server.as("othello").post(`/messages/${id}/reactions`, { emoji_name: "smile" })).body).toEqual(error("Reaction already exists.", "REACTION_ALREADY_EXISTS"));
    const code = (await raw(id)).message.reactions[0].emoji_code;
    await server.as("cordelia").post(`/messages/${id}/reactions`, { emoji_name: "smile", emoji_code: code, reaction_type: "unicode_emoji" });
    expect((await raw(id)).message.reactions).toEqual([
      { emoji_name: "smile", emoji_code: code, reaction_type: "unicode_emoji", user_id: server.users.othello.id },
      { emoji_name: "smile", emoji_code: code, reaction_type: "unicode_emoji", user_id: server.users.cordelia.id },
    ]);
    expect((await server.as("othello").delete(`/messages/${id}/reactions`, { emoji_name: "smile" })).body).toEqual(success());
    expect((await server.as("othello").delete(`/messages/${id}/reactions`, { emoji_name: "smile" })).body).toEqual(error("Reaction doesn't exist.", "REACTION_DOES_NOT_EXIST"));
  });

  it.each([
    [{ emoji_name: "no_such_emoji" }, error("Emoji 'no_such_emoji' does not exist")],
    [{ emoji_name: "smile", emoji_code: "zzzz", reaction_type: "unicode_emoji" }, error("Invalid emoji code.")],
    [{ emoji_name: "smile", emoji_code: "1f44d", reaction_type: "unicode_emoji" }, error("Invalid emoji name.")],
    [{ emoji_name: "smile", emoji_code: "1f600", reaction_type: "bogus" }, error("Invalid emoji type.")],
    [{}, error("Missing 'emoji_name' argument", "REQUEST_VARIABLE_MISSING", { var_name: "emoji_name" })],
  ])("refuses %j", async (params, expected) => {
    const id = await sendStream(server, "hamlet", "Verona", "react", "x");
    const res = await server.as("othello").post(`/messages/${id}/reactions`, params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it("removing needs a name or a code", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "react", "x");
    expect((await server.as("othello").delete(`/messages/${id}/reactions`, {})).body).toEqual(
      error("At least one of the following arguments must be present: emoji_name, emoji_code"),
    );
  });
});
