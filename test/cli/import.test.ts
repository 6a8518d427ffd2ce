import fs from "node:fs";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../src/app.js";
import { buildCommand } from "../harness/build.js";
import { runRookery, type CliResult } from "../harness/cli.js";
import { Client, type Json } from "../harness/client.js";
import { freshDatabase, startServer, testBackend, testConfig, type TestServer } from "../harness/server.js";
import { createStreams } from "../api/streams-helpers.js";
import { file, makePng, uploaded } from "../api/uploads-helpers.js";
import { png, uploadEmoji } from "../api/realm-emoji-helpers.js";

// An organisation with every kind of data, made through the API, exported with the built command
// (--with-secrets), imported with it into an empty data folder, and served again: each user's
// /register, every message with its flags, every file and every credential must be as before.
let server: TestServer;
let main: string;
let remove: () => void;
let imported: App | undefined;
let importedUrl = "";
let importRun: CliResult;
const drops: (() => Promise<void>)[] = [];
const NOTES = Buffer.from("private notes\n");
const ids = { lobby: 0, back: 0, upload: "", edited: 0, poll: 0, scheduled: 0 };
let avatarPng: Buffer;

function env(dataDir: string, databaseUrl: string): NodeJS.ProcessEnv {
  return { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_DATABASE_URL: databaseUrl, ROOKERY_REDIS_URL: "", ROOKERY_LOG_LEVEL: "warn" };
}

/** A fresh data folder and database. */
async function emptyTarget(): Promise<{ dataDir: string; databaseUrl: string }> {
  const dataDir = fs.mkdtempSync(path.join(server.dataDir, "target-"));
  const { url, drop } = await freshDatabase(dataDir);
  drops.push(drop);
  return { dataDir, databaseUrl: url };
}

beforeAll(async () => {
  server = await startServer();
  ({ main, remove } = await buildCommand("import"));
  const { iago, hamlet, othello, cordelia, bot } = server.users;
  ids.lobby = (await createStreams(server, "iago", ["Lobby"], { principals: [iago.id, hamlet.id, othello.id, cordelia.id] })).Lobby ?? 0;
  ids.back = (await createStreams(server, "iago", ["Back room"], { invite_only: true, principals: [iago.id, hamlet.id] }))["Back room"] ?? 0;
  ids.upload = await uploaded(server, "hamlet", file("notes.txt", NOTES, "text/plain"));
  const hi = (await server.as("hamlet").post("/messages", { type: "stream", to: ids.lobby, topic: "hi", content: "Hello @**Othello, the Moor of Venice**" })).body.id;
  await server.as("hamlet").post("/messages", { type: "stream", to: ids.back, topic: "plans", content: `See [notes](${ids.upload})` });
  ids.edited = (await server.as("othello").post("/messages", { type: "stream", to: ids.lobby, topic: "hi", content: "first words" })).body.id;
  server.clock.advance(60);
  expect((await server.as("othello").patch(`/messages/${ids.edited}`, { content: "second words" })).status).toBe(200);
  const dm = (await server.as("hamlet").post("/messages", { type: "direct", to: JSON.stringify([othello.id]), content: "Psst" })).body.id;
  await server.as("hamlet").post("/messages", { type: "direct", to: JSON.stringify([othello.id, cordelia.id]), content: "All three" });
  ids.poll = (await server.as("cordelia").post("/messages", { type: "stream", to: ids.lobby, topic: "vote", content: "/poll Lunch?\nPizza\nSoup" })).body.id;
  expect((await uploadEmoji(server, "iago", "party", [png()])).status).toBe(200);
  await server.as("othello").post(`/messages/${dm}/reactions`, { emoji_name: "smile" });
  await server.as("othello").post(`/messages/${hi}/reactions`, { emoji_name: "party", reaction_type: "realm_emoji" });
  await server.as("othello").post("/messages/flags", { messages: JSON.stringify([hi]), op: "add", flag: "starred" });
  await server.as("othello").post("/messages/flags", { messages: JSON.stringify([hi, dm]), op: "add", flag: "read" });
  await server.as("bot").post("/messages", { type: "stream", to: ids.lobby, topic: "bot", content: "beep" });
  avatarPng = await makePng(40, 40);
  expect((await server.as("cordelia").post("/users/me/avatar", {}, { files: [file("me.png", avatarPng, "image/png")] })).status).toBe(200);
  expect(bot.is_bot).toBe(1);
  // The rest of an organisation: every table the import writes. The scheduled message is due long
  // after both servers' clocks (the imported server runs on the real one).
  const ok = (res: { status: number; body: Json }) => expect(res.status, JSON.stringify(res.body)).toBe(200);
  ok(await server.as("hamlet").post("/drafts", { drafts: JSON.stringify([{ type: "stream", to: [ids.lobby], topic: "later", content: "draft text", timestamp: 1700000000 }]) }));
  ok(await server.as("hamlet").post("/scheduled_messages", { type: "stream", to: ids.lobby, topic: "soon", content: "scheduled", scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 10 * 365 * 86400 }));
  ok(await server.as("othello").post("/user_topics", { stream_id: ids.lobby, topic: "vote", visibility_policy: 1 }));
  ok(await server.as("othello").post(`/users/me/muted_users/${cordelia.id}`));
  ok(await server.as("hamlet").post("/users/me/alert_words", { alert_words: JSON.stringify(["lunch"]) }));
  ok(await server.as("hamlet").post("/users/me/status", { status_text: "On the ramparts" }));
  ok(await server.as("hamlet").patch("/settings", { emojiset: "text", enter_sends: true }));
  ok(await server.as("hamlet").post("/users/me/subscriptions/properties", { subscription_data: JSON.stringify([{ stream_id: ids.lobby, property: "color", value: "#aabbcc" }, { stream_id: ids.lobby, property: "pin_to_top", value: true }]) }));
  const field = await server.as("iago").post("/realm/profile_fields", { name: "Team", hint: "Where you work", field_type: 1 });
  ok(field);
  ok(await server.as("hamlet").patch("/users/me/profile_data", { data: JSON.stringify([{ id: field.body.id, value: "Castle" }]) }, { validate: false }));
  ok(await server.as("iago").post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker.example/{id}" }));
  ok(await server.as("iago").post("/realm/playgrounds", { name: "Python", pygments_language: "python", url_template: "https://play.example/?code={code}" }));
  ok(await server.as("iago").post("/default_streams", { stream_id: ids.lobby }));
  // Groups are made without checking the answer's shape: level 277's has no group_id (Zulip's document now does).
  ok(await server.as("iago").post("/user_groups/create", { name: "inner", description: "Inner circle", members: JSON.stringify([hamlet.id]) }, { validate: false }));
  ok(await server.as("iago").post("/user_groups/create", { name: "outer", description: "Everyone close", members: JSON.stringify([othello.id]) }, { validate: false }));
  const groups = await server.app.ctx.db.selectFrom("user_group").select(["id", "name"]).where("name", "in", ["inner", "outer"]).execute();
  const groupId = (name: string) => groups.find((g) => g.name === name)?.id ?? 0;
  ok(await server.as("iago").post(`/user_groups/${groupId("outer")}/subgroups`, { add: JSON.stringify([groupId("inner")]) }));
  ok(await server.as("desdemona").patch("/realm", { waiting_period_threshold: 5, description: "Imported *realm*" }));
  ok(await server.as("iago").delete(`/users/${server.users.polonius.id}`));
}, 180_000);

afterAll(async () => {
  await imported?.close();
  remove?.();
  for (const drop of drops) await drop();
  await server?.stop();
});

/** /register without what legitimately differs between two servers. */
function comparable(state: Json): Json {
  const { queue_id, last_event_id, server_timestamp, presences, presence_last_update_id, ...rest } = state;
  void queue_id; void last_event_id; void server_timestamp; void presences; void presence_last_update_id;
  return rest;
}

describe("rookery import (round trip through rookery export)", () => {
  beforeAll(async () => {
    const { config } = server.app.ctx;
    const out = path.join(server.dataDir, "round-trip.tar.gz");
    const exported = await runRookery(main, ["export", out, "--with-secrets", "--json"], env(config.dataDir, config.databaseUrl));
    expect(exported.code, exported.stderr).toBe(0);
    const target = await emptyTarget();
    importRun = await runRookery(main, ["import", out, "--json"], env(target.dataDir, target.databaseUrl));
    imported = await buildApp(testConfig(target.dataDir, target.databaseUrl, { externalUrl: config.externalUrl }), { logger: pino({ level: "silent" }) });
    importedUrl = await imported.http.listen({ host: "127.0.0.1", port: 0 });
    await imported.listening(importedUrl);
  }, 180_000);

  it(`imports (${testBackend()})`, () => {
    expect(importRun.code, importRun.stderr).toBe(0);
    const result = JSON.parse(importRun.stdout) as Json;
    expect(result).toMatchObject({ realm_id: server.users.iago.realm_id, messages: 7, ignored: expect.any(Array) });
  });

  it("gives every user the same /register", async () => {
    const users = await server.app.ctx.db.selectFrom("user").selectAll().where("is_active", "=", 1).where("is_system_bot", "=", 0).execute();
    expect(users.length).toBeGreaterThan(4);
    for (const user of users) {
      const before = await new Client(server.url, { email: user.email, apiKey: user.api_key }).post("/register", {});
      const after = await new Client(importedUrl, { email: user.email, apiKey: user.api_key }).post("/register", {});
      expect(after.status, user.email).toBe(200);
      expect(comparable(after.body), user.email).toEqual(comparable(before.body));
    }
  });

  it("serves every message with each user's flags", async () => {
    const users = await server.app.ctx.db.selectFrom("user").selectAll().where("is_active", "=", 1).where("is_system_bot", "=", 0).where("is_bot", "=", 0).execute();
    for (const user of users) {
      const params = { anchor: "oldest", num_before: 0, num_after: 100, apply_markdown: true };
      const before = await new Client(server.url, { email: user.email, apiKey: user.api_key }).get("/messages", params);
      const after = await new Client(importedUrl, { email: user.email, apiKey: user.api_key }).get("/messages", params);
      expect(after.body, user.email).toEqual(before.body);
    }
  });

  it("keeps uploads, avatars and custom emoji byte for byte", async () => {
    const fetchBoth = async (url: string, who: { email: string; api_key: string }) => {
      const auth = { authorization: "Basic " + Buffer.from(`${who.email}:${who.api_key}`).toString("base64") };
      const a = await fetch(new URL(url, server.url), { headers: auth });
      const b = await fetch(new URL(url, importedUrl), { headers: auth });
      return [Buffer.from(await a.arrayBuffer()), Buffer.from(await b.arrayBuffer()), b.status] as const;
    };
    const [upBefore, upAfter, upStatus] = await fetchBoth(ids.upload, server.users.hamlet);
    expect(upStatus).toBe(200);
    expect(upAfter).toEqual(upBefore);
    expect(upAfter).toEqual(NOTES);
    const state = (await new Client(importedUrl, { email: server.users.cordelia.email, apiKey: server.users.cordelia.api_key }).post("/register", {})).body;
    const cordelia = state.realm_users.find((u: Json) => u.user_id === server.users.cordelia.id);
    for (const url of [cordelia.avatar_url, cordelia.avatar_url.replace(".png", "-medium.png")]) {
      const [before, after, status] = await fetchBoth(url, server.users.cordelia);
      expect(status, url).toBe(200);
      expect(after, url).toEqual(before);
    }
    const emoji = Object.values(state.realm_emoji as Record<string, Json>).find((e) => e.name === "party");
    const [before, after, status] = await fetchBoth(emoji.source_url, server.users.cordelia);
    expect(status).toBe(200);
    expect(after).toEqual(before);
  });

  it("keeps API keys (a bot still posts) and passwords (a user still logs in)", async () => {
    const { bot, hamlet } = server.users;
    const sent = await new Client(importedUrl, { email: bot.email, apiKey: bot.api_key }).post("/messages", { type: "stream", to: ids.lobby, topic: "bot", content: "still here" });
    expect(sent.status).toBe(200);
    // Ids continue above the imported ones (on PostgreSQL, the sequences were moved).
    expect(sent.body.id).toBe(8);
    const login = await new Client(importedUrl, undefined).post("/fetch_api_key", { username: hamlet.delivery_email, password: server.password });
    expect(login.body).toEqual({ result: "success", msg: "", api_key: hamlet.api_key, email: hamlet.email, user_id: hamlet.id });
  });
});
