import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCommand } from "../harness/build.js";
import { runRookery, type CliResult } from "../harness/cli.js";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams } from "../api/streams-helpers.js";
import { file, uploaded } from "../api/uploads-helpers.js";
import { png, uploadEmoji } from "../api/realm-emoji-helpers.js";
import { extract } from "../api/export-helpers.js";

// The full export made by the built command, from an organisation with every kind of data,
// opened with an independent tar reader: Zulip's files, tables, ids and the stored files' bytes.
let server: TestServer;
let main: string;
let remove: () => void;
let run: CliResult;
let archive: Awaited<ReturnType<typeof extract>>;
const ids = { public: 0, private: 0, publicMessage: 0, privateMessage: 0, dm: 0, groupDm: 0 };
const NOTES = Buffer.from("private notes\n");
const EXTRA = 1000;

beforeAll(async () => {
  server = await startServer();
  ({ main, remove } = await buildCommand("export"));
  const { iago, hamlet, othello, cordelia } = server.users;
  ids.public = (await createStreams(server, "iago", ["Lobby"], { principals: [iago.id, hamlet.id] })).Lobby ?? 0;
  ids.private = (await createStreams(server, "iago", ["Back room"], { invite_only: true, principals: [iago.id, hamlet.id] }))["Back room"] ?? 0;
  const url = await uploaded(server, "hamlet", file("notes.txt", NOTES, "text/plain"));
  ids.publicMessage = (await server.as("hamlet").post("/messages", { type: "stream", to: ids.public, topic: "hi", content: "Hello" })).body.id;
  ids.privateMessage = (await server.as("hamlet").post("/messages", { type: "stream", to: ids.private, topic: "plans", content: `See [notes](${url})` })).body.id;
  ids.dm = (await server.as("hamlet").post("/messages", { type: "direct", to: JSON.stringify([othello.id]), content: "Psst" })).body.id;
  ids.groupDm = (await server.as("hamlet").post("/messages", { type: "direct", to: JSON.stringify([othello.id, cordelia.id]), content: "All three" })).body.id;
  await server.as("othello").post(`/messages/${ids.dm}/reactions`, { emoji_name: "smile" });
  await server.as("hamlet").post("/drafts", { drafts: [{ type: "stream", to: [ids.public], topic: "later", content: "draft text", timestamp: 1700000000 }] });
  await server.as("hamlet").post("/scheduled_messages", { type: "stream", to: ids.public, topic: "soon", content: "scheduled", scheduled_delivery_timestamp: Math.floor(server.clock.now() / 1000) + 3600 });
  expect((await uploadEmoji(server, "iago", "party", [png()])).status).toBe(200);
  // More than one batch: Zulip's exports hold 1000 messages per messages-NNNNNN.json file.
  const recipient = await server.app.ctx.db.selectFrom("message").select("recipient_id").where("id", "=", ids.publicMessage).executeTakeFirstOrThrow();
  await server.app.ctx.store.write(async (tx) => {
    const rows = Array.from({ length: EXTRA }, (_, i) => ({
      realm_id: iago.realm_id, sender_id: iago.id, stream_id: ids.public, topic: "bulk", dm_key: "", content: `bulk ${i}`, rendered_content: `<p>bulk ${i}</p>`,
      date_sent: server.clock.now(), last_edit_time: null, edit_history: null, has_link: 0, has_image: 0, has_attachment: 0, is_me_message: 0, client: "test", recipient_id: recipient.recipient_id,
    }));
    for (let i = 0; i < rows.length; i += 100) await tx.insertInto("message").values(rows.slice(i, i + 100)).execute();
  });
  const { config } = server.app.ctx;
  const out = path.join(server.dataDir, "zulip-export-test.tar.gz");
  run = await runRookery(main, ["export", out, "--with-secrets", "--json"], { ...process.env, ROOKERY_DATA_DIR: config.dataDir, ROOKERY_DATABASE_URL: config.databaseUrl, ROOKERY_REDIS_URL: "", ROOKERY_LOG_LEVEL: "warn" });
  archive = await extract(fs.readFileSync(out));
}, 180_000);

afterAll(async () => {
  archive?.remove();
  remove?.();
  await server?.stop();
});

describe("rookery export", () => {
  it("prints what it wrote and its progress", () => {
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Json;
    expect(result).toEqual({ file: expect.stringMatching(/zulip-export-test\.tar\.gz$/), realm: expect.any(String), messages: EXTRA + 4, files: 2, bytes: expect.any(Number), seconds: expect.any(Number) });
    expect(run.stderr).toMatch(/^rookery: messages \d+\/1004 \(\d+%\), \d+\/s, about \d+ s left\n/);
    expect(run.stderr.trimEnd().split("\n").pop()).toMatch(/^rookery: messages 1004\/1004 \(100%\), \d+\/s, about 0 s left$/);
  });

  it("writes Zulip's layout in a folder named after the file", () => {
    expect(archive.top).toBe("zulip-export-test");
    const files = archive.files();
    expect(files.filter((f) => !f.startsWith("uploads/") && !f.startsWith("emoji/"))).toEqual(
      ["analytics.json", "attachment.json", "avatars/records.json", "messages-000001.json", "messages-000002.json", "realm.json", "realm_icons/records.json"].sort(),
    );
    expect(files.filter((f) => f.startsWith("emoji/"))).toEqual([`emoji/${server.users.iago.realm_id}/emoji/images/${archive.read("emoji/records.json")[0].file_name}`, "emoji/records.json"].sort());
  });

  it("holds every message, private ones and direct messages too, 1000 to a batch", () => {
    const first = archive.read("messages-000001.json");
    const second = archive.read("messages-000002.json");
    expect(first.zerver_message).toHaveLength(1000);
    expect(second.zerver_message).toHaveLength(4);
    const all = [...first.zerver_message, ...second.zerver_message].map((m: Json) => m.id);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    for (const id of [ids.publicMessage, ids.privateMessage, ids.dm, ids.groupDm]) expect(all).toContain(id);
    const realm = archive.read("realm.json");
    const recipients = new Map(realm.zerver_recipient.map((r: Json) => [r.id, r]));
    const groupDm = first.zerver_message.find((m: Json) => m.id === ids.groupDm);
    expect(recipients.get(groupDm.recipient)).toMatchObject({ type: 3 });
    const [huddle] = realm.zerver_huddle;
    const members = [server.users.hamlet.id, server.users.othello.id, server.users.cordelia.id].sort((a, b) => a - b);
    expect(huddle).toMatchObject({ id: groupDm.recipient, recipient: groupDm.recipient, group_size: 3 });
    expect(realm.zerver_subscription.filter((s: Json) => s.recipient === groupDm.recipient).map((s: Json) => s.user_profile).sort((a: number, b: number) => a - b)).toEqual(members);
    const dm = first.zerver_message.find((m: Json) => m.id === ids.dm);
    expect(recipients.get(dm.recipient)).toEqual({ id: dm.recipient, type: 1, type_id: server.users.othello.id });
    expect(realm.zerver_reaction).toEqual([expect.objectContaining({ message: ids.dm, user_profile: server.users.othello.id, emoji_name: "smile" })]);
    const um = [...first.zerver_usermessage, ...second.zerver_usermessage];
    expect(new Set(um.map((u: Json) => u.id)).size).toBe(um.length);
    const botIds = new Set(realm.zerver_userprofile_crossrealm.map((b: Json) => b.id));
    expect(botIds.size).toBeGreaterThan(0);
    expect(um.filter((u: Json) => botIds.has(u.user_profile))).toEqual([]);
  });

  it("includes secrets, scheduled messages and drafts when asked", () => {
    const realm = archive.read("realm.json");
    const hamlet = realm.zerver_userprofile.find((u: Json) => u.id === server.users.hamlet.id);
    expect(hamlet.api_key).toBe(server.users.hamlet.api_key);
    expect(typeof hamlet.password).toBe("string");
    expect(realm.zerver_scheduledmessage).toEqual([expect.objectContaining({ sender: server.users.hamlet.id, content: "scheduled", subject: "soon", stream: ids.public })]);
    expect(realm.zerver_draft).toEqual([expect.objectContaining({ user_profile: server.users.hamlet.id, content: "draft text", topic: "later" })]);
    expect(realm.zerver_realmemoji).toEqual([expect.objectContaining({ name: "party", author: server.users.iago.id, deactivated: false })]);
  });

  it("copies the private channel's upload byte for byte", () => {
    const [attachment] = archive.read("attachment.json").zerver_attachment;
    expect(attachment).toMatchObject({ file_name: "notes.txt", messages: [ids.privateMessage], owner: server.users.hamlet.id });
    expect(fs.readFileSync(path.join(archive.dir, "uploads", attachment.path_id))).toEqual(NOTES);
  });

  it("refuses an unknown organisation, and leaves no file", async () => {
    const { config } = server.app.ctx;
    const out = path.join(server.dataDir, "other.tar.gz");
    const res = await runRookery(main, ["export", out, "--subdomain", "nowhere"], { ...process.env, ROOKERY_DATA_DIR: config.dataDir, ROOKERY_DATABASE_URL: config.databaseUrl, ROOKERY_REDIS_URL: "", ROOKERY_LOG_LEVEL: "warn" });
    expect(res).toEqual({ code: 1, stdout: "", stderr: 'rookery: no organisation has the subdomain "nowhere"\n' });
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.existsSync(`${out}.partial`)).toBe(false);
  });
});
