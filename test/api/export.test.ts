import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { download, file, makePng, uploaded } from "./uploads-helpers.js";
import { createStreams } from "./streams-helpers.js";
import { exportQueue, extract } from "./export-helpers.js";

let server: TestServer;
let publicId: number;
let privateId: number;
let publicMessage: number;
let privateMessage: number;
let dmMessage: number;
let uploadUrl: string;
const UPLOAD = Buffer.from("exported bytes\n".repeat(100));

beforeAll(async () => {
  server = await startServer();
  const principals = [server.users.iago.id, server.users.hamlet.id];
  publicId = (await createStreams(server, "iago", ["Exported"], { principals })).Exported ?? 0;
  privateId = (await createStreams(server, "iago", ["Hidden"], { invite_only: true, principals })).Hidden ?? 0;
  uploadUrl = await uploaded(server, "hamlet", file("notes.txt", UPLOAD, "text/plain"));
  publicMessage = (await server.as("hamlet").post("/messages", { type: "stream", to: publicId, topic: "out", content: `Public, with [notes](${uploadUrl})` })).body.id;
  privateMessage = (await server.as("hamlet").post("/messages", { type: "stream", to: privateId, topic: "in", content: "Private" })).body.id;
  dmMessage = (await server.as("hamlet").post("/messages", { type: "direct", to: JSON.stringify([server.users.othello.id]), content: "Direct" })).body.id;
  await server.as("othello").post(`/messages/${publicMessage}/reactions`, { emoji_name: "octopus" });
  const avatar = await server.as("hamlet").request("POST", "/users/me/avatar", {}, { files: [{ field: "file", filename: "me.png", type: "image/png", data: await makePng(40, 40) }] });
  expect(avatar.status).toBe(200);
});
afterAll(() => server.stop());

/** Zulip's OpenAPI document lacks DELETE /export/realm/{export_id} (it exists at level 277). */
const NO_SCHEMA = { validate: false };
const ADMIN_REQUIRED = error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
const urlPath = (url: string) => new URL(url).pathname;
const avatarFiles = (records: Json[]): string[] => records.map((r) => `avatars/${String(r.path)}`);

/** Requests an export as `who` and waits for it to finish: its id, its events and its entry in GET. */
async function exportAs(who: FixtureName): Promise<{ id: number; events: Json[]; entry: Json }> {
  const queue = await exportQueue(server, who);
  const res = await server.as(who).post("/export/realm");
  expect(res.status).toBe(200);
  expect(res.body).toEqual(success({ id: expect.any(Number) }));
  const events = await queue.next(2);
  const entry = (await server.as(who).get("/export/realm")).body.exports.find((e: Json) => e.id === res.body.id);
  return { id: res.body.id, events, entry };
}

describe("POST /export/realm, GET /export/realm", () => {
  it.each(["hamlet", "shiva", "polonius"] as const)("refuses %s (not an administrator)", async (who) => {
    for (const res of [await server.as(who).post("/export/realm"), await server.as(who).get("/export/realm"), await server.as(who).delete("/export/realm/1", {}, NO_SCHEMA)]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(ADMIN_REQUIRED);
    }
  });

  it("lists nothing at first (Zulip's example call)", async () => {
    const res = await server.as("iago").get("/export/realm");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ exports: [] }));
  });

  it("writes a public export in the background, tells the administrator, and lists it", async () => {
    const started = server.clock.now() / 1000;
    const { id, events, entry } = await exportAs("iago");
    const pending = { id, export_time: started, acting_user_id: server.users.iago.id, export_url: null, deleted_timestamp: null, failed_timestamp: null, pending: true };
    expect(events[0]).toEqual({ type: "realm_export", id: expect.any(Number), exports: [pending] });
    const done = { ...pending, pending: false, export_url: expect.stringMatching(new RegExp(`/user_avatars/exports/${server.users.iago.realm_id}/[A-Za-z0-9_-]+/zulip-export-[a-z0-9]{8}\\.tar\\.gz$`)) };
    expect(events[1]).toEqual({ type: "realm_export", id: expect.any(Number), exports: [done] });
    expect(entry).toEqual(events[1].exports[0]);
    // Notification Bot tells the one who asked.
    const newest = await server.as("iago").get("/messages", { anchor: "newest", num_before: 1, num_after: 0 });
    expect(newest.body.messages.map((m: Json) => [m.sender_email, m.type, m.content])).toEqual([
      ["notification-bot@zulip.com", "private", '<p>Your data export is complete. <a href="/#organization/data-exports-admin">View and download exports</a>.</p>'],
    ]);
  });

  it("serves the archive only to administrators and owners", async () => {
    const [entry] = (await server.as("iago").get("/export/realm")).body.exports;
    const url = urlPath(entry.export_url);
    for (const who of ["iago", "desdemona"] as const) {
      const res = await download(server, who, url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/gzip");
      expect(res.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    }
    for (const who of ["hamlet", "shiva", "polonius", undefined] as const) expect((await download(server, who, url)).status).toBe(403);
    expect((await download(server, "iago", url.replace(/\.tar\.gz$/, "x.tar.gz"))).status).toBe(404);
  });

  it("holds Zulip's tables, public messages only, the upload and its records", async () => {
    const [entry] = (await server.as("iago").get("/export/realm")).body.exports;
    const archive = await extract((await download(server, "iago", urlPath(entry.export_url))).body);
    try {
      expect(archive.top).toMatch(/^zulip-export-[a-z0-9]{8}$/);
      const pathId = uploadUrl.replace("/user_uploads/", "");
      expect(archive.files()).toEqual(
        ["analytics.json", "attachment.json", ...avatarFiles(archive.read("avatars/records.json")), "avatars/records.json", "emoji/records.json", "messages-000001.json", "realm.json", "realm_icons/records.json", `uploads/${pathId}`, "uploads/records.json"].sort(),
      );
      const realm = archive.read("realm.json");
      expect(realm.zerver_realm).toEqual([expect.objectContaining({ id: server.users.iago.realm_id, string_id: expect.any(String), deactivated: false, invite_required: true, new_stream_announcements_stream: null })]);
      // Zulip's importer makes a Realm of every key: API-only settings stay out, group settings are group ids.
      expect(realm.zerver_realm[0]).not.toHaveProperty("authentication_methods");
      expect(realm.zerver_realm[0]).not.toHaveProperty("new_stream_announcements_stream_id");
      const groupIds = new Map(realm.zerver_namedusergroup.map((g: Json) => [g.name, g.id]));
      expect(realm.zerver_realm[0].create_multiuse_invite_group).toBe(groupIds.get("role:administrators"));
      expect(realm.zerver_realm[0].can_create_public_channel_group).toBe(groupIds.get("role:members"));
      const avatars = archive.read("avatars/records.json");
      expect(avatars.map((r: Json) => [r.user_profile_id, r.path.replace(/^\d+\/[0-9a-f]{40}/, "")])).toEqual([[server.users.hamlet.id, ".original"], [server.users.hamlet.id, ".png"]]);
      const users = realm.zerver_userprofile as Json[];
      expect(users.map((u) => u.id)).toEqual([...users.map((u) => u.id)].sort((a, b) => a - b));
      const iago = users.find((u) => u.id === server.users.iago.id);
      expect(iago).toMatchObject({ email: server.users.iago.email, delivery_email: "iago@zulip.com", full_name: "Iago", role: 200, realm: server.users.iago.realm_id, is_active: true });
      expect(iago).toMatchObject({ user_permissions: [], groups: [], last_active_message_id: null, default_sending_stream: null, default_events_register_stream: null });
      expect(iago).not.toHaveProperty("api_key");
      expect(iago).not.toHaveProperty("password");
      expect(realm.zerver_userprofile_crossrealm.map((b: Json) => b.email)).toContain("notification-bot@zulip.com");
      expect(realm.zerver_stream.map((s: Json) => s.name)).toEqual(expect.arrayContaining(["Exported", "Hidden"]));
      expect(realm.zerver_stream[0]).not.toHaveProperty("email_token");
      const recipientIds = new Set(realm.zerver_recipient.map((r: Json) => r.id));
      expect(recipientIds.size).toBe(realm.zerver_recipient.length);
      for (const u of users) expect(recipientIds).toContain(u.recipient);
      for (const s of realm.zerver_stream) expect(recipientIds).toContain(s.recipient);
      for (const sub of realm.zerver_subscription) expect(recipientIds).toContain(sub.recipient);
      // Zulip's importer maps the cross-realm bots to its own, with their own recipients and subscriptions.
      const bots = realm.zerver_userprofile_crossrealm as Json[];
      for (const bot of bots) {
        expect(recipientIds).not.toContain(bot.recipient_id);
        expect(realm.zerver_subscription.filter((sub: Json) => sub.user_profile === bot.id)).toEqual([]);
      }
      expect(realm.zerver_reaction).toEqual([{ id: 1, user_profile: server.users.othello.id, message: publicMessage, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" }]);
      expect(realm.zerver_scheduledmessage).toEqual([]);

      const batch = archive.read("messages-000001.json");
      expect(batch.zerver_message.map((m: Json) => m.id)).toEqual([publicMessage]);
      expect(batch.zerver_message.map((m: Json) => m.id)).not.toContain(privateMessage);
      expect(batch.zerver_message.map((m: Json) => m.id)).not.toContain(dmMessage);
      const [message] = batch.zerver_message;
      expect(message).toMatchObject({ sender: server.users.hamlet.id, subject: "out", content: `Public, with [notes](${uploadUrl})`, has_attachment: true });
      expect(recipientIds).toContain(message.recipient);
      expect(realm.zerver_client.map((c: Json) => c.id)).toContain(message.sending_client);
      // The subscribers' rows, and the historical row Othello got by reacting.
      expect(batch.zerver_usermessage.map((um: Json) => um.user_profile).sort((a: number, b: number) => a - b)).toEqual([server.users.iago.id, server.users.hamlet.id, server.users.othello.id].sort((a, b) => a - b));
      expect(batch.zerver_usermessage.every((um: Json) => um.message === publicMessage && typeof um.flags_mask === "number")).toBe(true);

      const attachments = archive.read("attachment.json").zerver_attachment;
      expect(attachments).toEqual([expect.objectContaining({ path_id: pathId, file_name: "notes.txt", size: UPLOAD.length, owner: server.users.hamlet.id, messages: [publicMessage], scheduled_messages: [] })]);
      expect(fs.readFileSync(path.join(archive.dir, "uploads", pathId))).toEqual(UPLOAD);
      expect(archive.read("uploads/records.json")).toEqual([
        expect.objectContaining({ path: pathId, s3_path: pathId, size: UPLOAD.length, user_profile_id: server.users.hamlet.id, user_profile_email: server.users.hamlet.email, realm_id: server.users.hamlet.realm_id }),
      ]);
      expect(archive.read("analytics.json")).toEqual({ analytics_realmcount: [], analytics_streamcount: [], analytics_usercount: [] });
    } finally {
      archive.remove();
    }
  });

  it("ignores export_type, which is newer than feature level 277", async () => {
    const queue = await exportQueue(server, "desdemona");
    const res = await server.as("desdemona").post("/export/realm", { export_type: 2 });
    expect(res.body).toEqual(success({ id: expect.any(Number), ignored_parameters_unsupported: ["export_type"] }));
    await queue.next(2);
  });
});

describe("DELETE /export/realm/{export_id}", () => {
  it("deletes the archive and marks the export deleted", async () => {
    const { id, entry } = await exportAs("iago");
    const queue = await exportQueue(server, "iago");
    const res = await server.as("iago").delete(`/export/realm/${id}`, {}, NO_SCHEMA);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    const [event] = await queue.next(1);
    const deleted = event.exports.find((e: Json) => e.id === id);
    expect(deleted).toEqual({ ...entry, export_url: null, deleted_timestamp: server.clock.now() / 1000, pending: false });
    expect((await download(server, "iago", urlPath(entry.export_url))).status).toBe(404);
    expect(fs.existsSync(path.join(server.dataDir, "uploads", urlPath(entry.export_url)))).toBe(false);
    expect((await server.as("iago").delete(`/export/realm/${id}`, {}, NO_SCHEMA)).body).toEqual(error("Export already deleted"));
  });

  it.each([["999999"], ["0"], ["abc"]])("refuses an unknown id %s", async (id) => {
    const res = await server.as("iago").delete(`/export/realm/${id}`, {}, NO_SCHEMA);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Invalid data export ID"));
  });

  it("refuses a failed export", async () => {
    const { insertExport, updateExport } = await import("../../src/db/queries/exports.js");
    const now = server.clock.now();
    const id = await server.app.ctx.store.write(async (tx) => {
      const row = await insertExport(tx, server.users.iago.realm_id, server.users.iago.id, now);
      await updateExport(tx, row, { started_time: now, failed_time: now });
      return row;
    });
    expect((await server.as("iago").delete(`/export/realm/${id}`, {}, NO_SCHEMA)).body).toEqual(error("Export failed, nothing to delete"));
    const listed = (await server.as("iago").get("/export/realm")).body.exports.find((e: Json) => e.id === id);
    expect(listed).toMatchObject({ pending: false, export_url: null, failed_timestamp: server.clock.now() / 1000 });
  });
});

describe("the export job", () => {
  it("marks failed an export its process left half-written, and tells the administrator", async () => {
    const { insertExport, updateExport } = await import("../../src/db/queries/exports.js");
    const queue = await exportQueue(server, "iago");
    const now = server.clock.now();
    const id = await server.app.ctx.store.write(async (tx) => {
      const row = await insertExport(tx, server.users.iago.realm_id, server.users.iago.id, now);
      await updateExport(tx, row, { started_time: now });
      return row;
    });
    await server.app.ctx.exports.runDue();
    const [event] = await queue.next(1);
    expect(event.exports.find((e: Json) => e.id === id)).toEqual({ id, export_time: now / 1000, acting_user_id: server.users.iago.id, export_url: null, deleted_timestamp: null, failed_timestamp: now / 1000, pending: false });
  });
});

describe("limits", () => {
  it("allows five exports a week, then answers Zulip's rate-limit error", async () => {
    server.clock.advance(8 * 24 * 3600);
    for (let i = 0; i < 5; i++) await exportAs("iago");
    const res = await server.as("iago").post("/export/realm");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Exceeded rate limit."));
    server.clock.advance(7 * 24 * 3600 + 1);
    await exportAs("iago");
  });

  it("sends organisations with over 10 GiB of uploads to the server's administrator", async () => {
    server.clock.advance(8 * 24 * 3600);
    const setSizes = (size: number) => server.app.ctx.store.write((tx) => tx.updateTable("attachment").set({ size }).where("realm_id", "=", server.users.iago.realm_id).execute());
    await setSizes(11 * 1024 ** 3);
    const res = await server.as("iago").post("/export/realm");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Please request a manual export from noreply@rookery.invalid."));
    await setSizes(UPLOAD.length);
  });

  it("refuses to delete an export still being written", async () => {
    server.clock.advance(8 * 24 * 3600);
    for (const app of server.apps) await app.ctx.exports.stop();
    const { id } = (await server.as("iago").post("/export/realm")).body;
    expect((await server.as("iago").delete(`/export/realm/${id}`, {}, NO_SCHEMA)).body).toEqual(error("Export still in progress"));
    expect((await server.as("iago").get("/export/realm")).body.exports.find((e: Json) => e.id === id)).toMatchObject({ pending: true, export_url: null });
  });
});
