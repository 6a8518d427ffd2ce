import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../src/app.js";
import { lockDataDir } from "../../src/data-lock.js";
import { buildCommand } from "../harness/build.js";
import { runRookery } from "../harness/cli.js";
import { Client } from "../harness/client.js";
import { freshDatabase, testConfig } from "../harness/server.js";
import { slackChannel, slackUser, writeZip } from "./slack-export-fixture.js";

// A Slack workspace export built from Slack's documented format, imported with the built command
// into a fresh data folder, then read back through the API of a server started on it.
const HOST = "chat.example.test";
let main: string;
let remove: () => void;
let work: string;
const cleanups: (() => Promise<void>)[] = [];

/** A fresh data folder and database, and the environment the command runs with. */
async function target(): Promise<{ dataDir: string; databaseUrl: string; env: NodeJS.ProcessEnv }> {
  const dataDir = fs.mkdtempSync(path.join(work, "data-"));
  const { url, drop } = await freshDatabase(dataDir);
  cleanups.push(drop);
  return { dataDir, databaseUrl: url, env: { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_DATABASE_URL: url, ROOKERY_EXTERNAL_URL: `http://${HOST}`, ROOKERY_LOG_LEVEL: "warn" } };
}

const NOTES = Buffer.from("Agenda: ship v1.2\n");

const USERS = [
  slackUser("U002", "bob", "Bob Brown", { is_admin: true }),
  slackUser("U001", "alice", "Alice Arden", { is_owner: true, is_primary_owner: true, tz: "Europe/London" }),
  slackUser("U003", "carol", "Carol Chen", { tz: null }),
  slackUser("U004", "dave", "Dave Doe", { deleted: true }),
  slackUser("U005", "erin", "Erin Evans", { is_restricted: true }),
  slackUser("B006", "deploybot", "Deploy Bot", { is_bot: true }, { email: undefined, bot_id: "B1", real_name_normalized: "Deploy Bot" }),
];

function message(ts: string, user: string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: "message", ts, user, text, client_msg_id: `c-${ts}`, team: "T0001", ...extra };
}

/** The entries of the export: three channels (one archived), a private one, a DM, a group DM, a held file. */
function exportEntries(overrides: Record<string, unknown> = {}): [string, unknown][] {
  const everyone = ["U001", "U002", "U003", "U004", "B006"];
  const entries: Record<string, unknown> = {
    "users.json": USERS,
    "channels.json": [
      slackChannel("C100", "general", everyone, { purpose: { value: "Company-wide *news*", creator: "U001", last_set: 1 } }),
      slackChannel("C101", "random", ["U001", "U002", "U003", "U005"]),
      slackChannel("C102", "old-project", ["U001"], { is_archived: true, topic: { value: "Old stuff", creator: "U001", last_set: 1 } }),
    ],
    "groups.json": [slackChannel("G200", "secret", ["U001", "U002"], { purpose: { value: "Plans", creator: "U001", last_set: 1 } })],
    "dms.json": [{ id: "D300", created: 1700000000, members: ["U001", "U003"] }],
    "mpims.json": [{ id: "G400", name: "mpdm-alice--bob--carol-1", created: 1700000000, members: ["U001", "U002", "U003"] }],
    "integration_logs.json": [],
    "general/2024-03-01.json": [
      message("1709290800.000100", "U001", "Hello *team*, see <#C101|random> and _welcome_ ~old~ &lt;3 `*not bold*`", {
        blocks: [{ type: "rich_text", block_id: "b1", elements: [{ type: "rich_text_section", elements: [{ type: "text", text: "Hello " }] }] }],
        reactions: [
          { name: "+1", users: ["U002", "U003"], count: 2 },
          { name: "clap::skin-tone-2", users: ["U002"], count: 1 },
          { name: "clap", users: ["U002", "U003"], count: 2 },
          { name: "not-an-emoji", users: ["U003"], count: 1 },
        ],
      }),
      message("1709290900.000200", "U002", "Deploy today? <@U003>", { thread_ts: "1709290900.000200", reply_count: 2, reply_users: ["U003", "U001"] }),
      message("1709291000.000300", "U003", "Yes, <https://example.com/ci|CI> is green", { thread_ts: "1709290900.000200", parent_user_id: "U002", edited: { user: "U003", ts: "1709291060.000000" } }),
      message("1709291050.000000", "U004", "<@U004> has joined the channel", { subtype: "channel_join" }),
      message("1709291100.000400", "U004", "bye all"),
      message("1709291150.000000", "B006", "", {
        subtype: "bot_message",
        bot_id: "B1",
        username: "Deploy Bot",
        attachments: [{ id: 1, fallback: "Build 42 passed", title: "Build 42", title_link: "https://ci.example/42", text: "All *green*", fields: [{ title: "Branch", value: "main", short: true }], footer: "CI" }],
      }),
      message("1709291180.000000", "U001", "notes attached", {
        files: [
          { id: "F1", created: 1709291180, name: "notes.txt", title: "Meeting notes", mimetype: "text/plain", size: NOTES.length, url_private: "https://files.slack.com/files-pri/T0001-F1/notes.txt" },
          { id: "F2", created: 1709291180, name: "spec.pdf", title: "Spec", mimetype: "application/pdf", size: 100, url_private: "https://files.slack.com/files-pri/T0001-F2/spec.pdf" },
          { id: "F3", mode: "tombstone" },
        ],
      }),
    ],
    "general/2024-03-02.json": [message("1709377200.000100", "U001", "Shipped", { thread_ts: "1709290900.000200", parent_user_id: "U002" })],
    "random/2024-03-01.json": [message("1709290850.000000", "U003", "random thought with <https://example.org>")],
    "secret/2024-03-01.json": [message("1709291200.000000", "U002", "private plan")],
    "D300/2024-03-01.json": [message("1709291300.000000", "U003", "hi alice")],
    "mpdm-alice--bob--carol-1/2024-03-02.json": [message("1709377300.000000", "U002", "group hello <@U001>")],
    "__uploads/F1/notes.txt": NOTES,
    ...overrides,
  };
  return Object.entries(entries);
}

let exportFile: string;
let app: App;
let alice: Client;
let result: Record<string, unknown>;
let imported: Awaited<ReturnType<typeof target>>;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-slack-"));
  ({ main, remove } = await buildCommand("import-slack"));
  exportFile = path.join(work, "Acme Slack export.zip");
  await writeZip(exportFile, exportEntries());
  imported = await target();
  const run = await runRookery(main, ["import-slack", exportFile, "--json"], imported.env);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  result = JSON.parse(run.stdout) as Record<string, unknown>;
  app = await buildApp(testConfig(imported.dataDir, imported.databaseUrl, { externalUrl: `http://${HOST}` }), { logger: pino({ level: "silent" }) });
  const address = await app.http.listen({ host: "127.0.0.1", port: 0 });
  await app.listening(address);
  const key = await app.ctx.db.selectFrom("user").select("api_key").where("delivery_email", "=", "alice@example.test").executeTakeFirstOrThrow();
  alice = new Client(address, { email: "alice@example.test", apiKey: key.api_key });
}, 180_000);

afterAll(async () => {
  await app?.close();
  for (const cleanup of cleanups) await cleanup();
  fs.rmSync(work, { recursive: true, force: true });
  remove?.();
});

describe("rookery import-slack", () => {
  it("prints what it imported", () => {
    const { seconds, ...counts } = result;
    expect(typeof seconds).toBe("number");
    expect(counts).toEqual({ realm_id: 1, users: 6, deactivated_users: 1, bots: 1, channels: 4, messages: 11, direct_messages: 2, reactions: 4, uploads: 1, file_links: 1, skipped_reactions: 1 });
  });

  it("makes accounts without passwords: roles, deactivated users and bots as Slack marks them", async () => {
    const res = await alice.get("/users");
    expect(res.status).toBe(200);
    const people = (res.body.members as Record<string, unknown>[])
      .map((u) => ({ email: u.email, full_name: u.full_name, role: u.role, is_active: u.is_active, is_bot: u.is_bot, timezone: u.timezone }))
      .sort((a, b) => String(a.email).localeCompare(String(b.email)));
    expect(people).toEqual([
      { email: "alice@example.test", full_name: "Alice Arden", role: 100, is_active: true, is_bot: false, timezone: "Europe/London" },
      { email: "bob@example.test", full_name: "Bob Brown", role: 200, is_active: true, is_bot: false, timezone: "America/Chicago" },
      { email: "carol@example.test", full_name: "Carol Chen", role: 400, is_active: true, is_bot: false, timezone: "America/New_York" },
      { email: "dave@example.test", full_name: "dave", role: 400, is_active: false, is_bot: false, timezone: "America/Chicago" },
      { email: `deploy-bot@${HOST}`, full_name: "Deploy Bot", role: 400, is_active: true, is_bot: true, timezone: "America/Chicago" },
      { email: "erin@example.test", full_name: "Erin Evans", role: 600, is_active: true, is_bot: false, timezone: "America/Chicago" },
    ]);
    const hashes = await app.ctx.db.selectFrom("user").select(["delivery_email", "password_hash"]).where("is_system_bot", "=", 0).execute();
    expect(hashes.every((u) => u.password_hash === null)).toBe(true);
    // The primary owner is numbered first, as Zulip's converter does.
    const first = await app.ctx.db.selectFrom("user").select("delivery_email").orderBy("id").limit(1).executeTakeFirstOrThrow();
    expect(first.delivery_email).toBe("alice@example.test");
  });

  it("makes channels: private, archived, descriptions and members", async () => {
    const res = await alice.post("/register", { fetch_event_types: JSON.stringify(["subscription", "realm"]), include_subscribers: true });
    expect(res.status).toBe(200);
    expect(res.body.realm_name).toBe("Acme Slack export");
    expect(res.body.realm_description).toBe("Organization imported from Slack!");
    const subs = (res.body.subscriptions as Record<string, unknown>[]).map((s) => ({ name: s.name, invite_only: s.invite_only, description: s.description, subscribers: (s.subscribers as number[]).length }));
    expect(subs.sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual([
      // Dave is deactivated: his subscription is kept but not listed.
      { name: "general", invite_only: false, description: "Company-wide *news*", subscribers: 4 },
      { name: "random", invite_only: false, description: "", subscribers: 4 },
      { name: "secret", invite_only: true, description: "Plans", subscribers: 2 },
    ]);
    const archived = await app.ctx.db.selectFrom("stream").select(["name", "deactivated", "description"]).where("name", "=", "old-project").executeTakeFirstOrThrow();
    expect(archived).toEqual({ name: "old-project", deactivated: 1, description: "Old stuff" });
    const defaults = await alice.post("/register", { fetch_event_types: JSON.stringify(["default_streams"]) });
    expect((defaults.body.realm_default_streams as { name: string }[]).map((s) => s.name).sort()).toEqual(["general", "random"]);
  });

  it("imports messages in time order: threads become topics, DMs and group DMs direct messages, mrkdwn becomes Markdown", async () => {
    const res = await alice.get("/messages", { anchor: "oldest", num_before: 0, num_after: 100, narrow: "[]", apply_markdown: false });
    expect(res.status).toBe(200);
    const messages = (res.body.messages as Record<string, unknown>[]).map((m) => ({
      sender: m.sender_email,
      to: m.type === "stream" ? `${String(m.display_recipient)} > ${String(m.subject)}` : (m.display_recipient as { email: string }[]).map((r) => r.email).join(","),
      content: m.content,
      timestamp: m.timestamp,
      flags: m.flags,
    }));
    const thread = "2024-03-01 Deploy today? @**Carol Chen**";
    expect(messages).toEqual([
      { sender: "alice@example.test", to: "general > imported from Slack", content: "Hello **team**, see #**random** and *welcome* ~~old~~ <3 `*not bold*`", timestamp: 1709290800, flags: ["read"] },
      { sender: "carol@example.test", to: "random > imported from Slack", content: "random thought with https://example.org", timestamp: 1709290850, flags: ["read"] },
      { sender: "bob@example.test", to: `general > ${thread}`, content: "Deploy today? @**Carol Chen**", timestamp: 1709290900, flags: ["read"] },
      { sender: "carol@example.test", to: `general > ${thread}`, content: "Yes, [CI](https://example.com/ci) is green", timestamp: 1709291000, flags: ["read"] },
      { sender: "dave@example.test", to: "general > imported from Slack", content: "bye all", timestamp: 1709291100, flags: ["read"] },
      { sender: `deploy-bot@${HOST}`, to: "general > imported from Slack", content: "## [Build 42](https://ci.example/42)\n\nAll **green**\n\n**Branch**: main\n\nCI", timestamp: 1709291150, flags: ["read"] },
      { sender: "alice@example.test", to: "general > imported from Slack", content: expect.stringMatching(/^notes attached\n\[Meeting notes\]\(\/user_uploads\/1\/[^)]+\/notes\.txt\)\n\[Spec\]\(https:\/\/files\.slack\.com\/files-pri\/T0001-F2\/spec\.pdf\)$/), timestamp: 1709291180, flags: ["read"] },
      { sender: "bob@example.test", to: "secret > imported from Slack", content: "private plan", timestamp: 1709291200, flags: ["read"] },
      { sender: "carol@example.test", to: "alice@example.test,carol@example.test", content: "hi alice", timestamp: 1709291300, flags: ["read"] },
      { sender: "alice@example.test", to: `general > ${thread}`, content: "Shipped", timestamp: 1709377200, flags: ["read"] },
      { sender: "bob@example.test", to: "alice@example.test,bob@example.test,carol@example.test", content: "group hello @**Alice Arden**", timestamp: 1709377300, flags: ["read", "mentioned"] },
    ]);
  });

  it("leaves the server sending on after the imported messages (ids continue from the last one)", async () => {
    const sent = await alice.post("/messages", { type: "stream", to: "general", topic: "after the import", content: "first new message" });
    expect(sent.status).toBe(200);
    const last = await app.ctx.db.selectFrom("message").select((eb) => eb.fn.max("id").as("id")).where("client", "=", "Slack import").executeTakeFirstOrThrow();
    expect(sent.body.id).toBe(Number(last.id) + 1);
  });

  it("renders with Rookery's renderer: mentions, channel links, links, edits", async () => {
    const res = await alice.get("/messages", { anchor: "oldest", num_before: 0, num_after: 4, narrow: JSON.stringify([{ operator: "channel", operand: "general" }]) });
    const [hello, deploy, reply] = res.body.messages as Record<string, unknown>[];
    const ids = await app.ctx.db.selectFrom("user").select(["id", "delivery_email"]).execute();
    const carol = ids.find((u) => u.delivery_email === "carol@example.test")!.id;
    const random = await app.ctx.db.selectFrom("stream").select("id").where("name", "=", "random").executeTakeFirstOrThrow();
    expect(hello!.content).toBe(
      `<p>Hello <strong>team</strong>, see <a class="stream" data-stream-id="${random.id}" href="/#narrow/channel/${random.id}-random">#random</a> and <em>welcome</em> <del>old</del> &lt;3 <code>*not bold*</code></p>`,
    );
    expect(deploy!.content).toBe(`<p>Deploy today? <span class="user-mention" data-user-id="${carol}">@Carol Chen</span></p>`);
    expect(reply!.content).toBe('<p>Yes, <a href="https://example.com/ci">CI</a> is green</p>');
    expect(reply!.last_edit_timestamp).toBe(1709291060);
    expect(hello!.last_edit_timestamp).toBeUndefined();
    // Carol, mentioned in the thread's first message, has it flagged.
    const carolKey = await app.ctx.db.selectFrom("user").select("api_key").where("id", "=", carol).executeTakeFirstOrThrow();
    const asCarol = new Client(alice.baseUrl, { email: "carol@example.test", apiKey: carolKey.api_key });
    const mentions = await asCarol.get("/messages", { anchor: "oldest", num_before: 0, num_after: 10, narrow: JSON.stringify([{ operator: "is", operand: "mentioned" }]), apply_markdown: false });
    expect((mentions.body.messages as { content: string }[]).map((m) => m.content)).toEqual(["Deploy today? @**Carol Chen**"]);
  });

  it("maps reactions to Zulip's emoji names, merging skin tones and leaving out unknown emoji", async () => {
    const res = await alice.get("/messages", { anchor: "oldest", num_before: 0, num_after: 1, narrow: "[]" });
    const reactions = ((res.body.messages as Record<string, unknown>[])[0]!.reactions as Record<string, unknown>[]).map((r) => `${String(r.emoji_name)}/${String(r.emoji_code)}/${String(r.reaction_type)}/${String((r.user as { email?: string } | undefined)?.email ?? r.user_id)}`);
    const ids = new Map((await app.ctx.db.selectFrom("user").select(["id", "delivery_email"]).execute()).map((u) => [u.id, u.delivery_email]));
    const readable = reactions.map((r) => r.replace(/\/(\d+)$/, (_m, id: string) => `/${ids.get(Number(id)) ?? id}`));
    expect(readable.sort()).toEqual(["+1/1f44d/unicode_emoji/bob@example.test", "+1/1f44d/unicode_emoji/carol@example.test", "clap/1f44f/unicode_emoji/bob@example.test", "clap/1f44f/unicode_emoji/carol@example.test"]);
  });

  it("stores a file the export holds as an upload linked from its message; a file it only names stays a link", async () => {
    const rows = await app.ctx.db.selectFrom("attachment").innerJoin("attachment_message", "attachment_message.attachment_id", "attachment.id").select(["path_id", "file_name", "size", "content_type"]).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ file_name: "notes.txt", size: NOTES.length, content_type: "text/plain" });
    expect(fs.readFileSync(path.join(imported.dataDir, "uploads", rows[0]!.path_id))).toEqual(NOTES);
    const res = await alice.get("/attachments");
    expect((res.body.attachments as { name: string; messages: unknown[] }[]).map((a) => [a.name, a.messages.length])).toEqual([["notes.txt", 1]]);
  });
});

describe("rookery import-slack refuses", () => {
  const refuse = async (env: NodeJS.ProcessEnv, file: string, stderr: string | RegExp): Promise<void> => {
    const run = await runRookery(main, ["import-slack", file], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    if (typeof stderr === "string") expect(run.stderr).toBe(stderr);
    else expect(run.stderr).toMatch(stderr);
  };

  it("a target that already holds an organisation, changing nothing", async () => {
    await refuse(imported.env, exportFile, `rookery: the target is not empty: it holds the organisation "Acme Slack export" (id 1) in ${imported.dataDir}; import-slack loads into an empty Rookery only (nothing was changed)\n`);
    const count = await app.ctx.db.selectFrom("message").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(12);
  });

  it("a data folder a running server holds", async () => {
    const t = await target();
    const lock = lockDataDir(t.dataDir);
    try {
      await refuse(t.env, exportFile, `rookery: the data folder ${t.dataDir} is in use by another Rookery server (process ${process.pid}); stop it first, or give this one another ROOKERY_DATA_DIR\n`);
    } finally {
      lock.release();
    }
  });

  it("a file that is not a zip archive, and a truncated one", async () => {
    const { env } = await target();
    const junk = path.join(work, "junk.zip");
    fs.writeFileSync(junk, "this is not a zip archive at all");
    await refuse(env, junk, `rookery: ${junk} is not a readable zip archive (End of central directory record signature not found. Either not a zip file, or file is truncated.); nothing was imported\n`);
    const truncated = path.join(work, "truncated.zip");
    fs.writeFileSync(truncated, fs.readFileSync(exportFile).subarray(0, Math.floor(fs.statSync(exportFile).size / 2)));
    await refuse(env, truncated, `rookery: ${truncated} is not a readable zip archive (End of central directory record signature not found. Either not a zip file, or file is truncated.); nothing was imported\n`);
    await refuse(env, path.join(work, "missing.zip"), new RegExp(`^rookery: ${path.join(work, "missing.zip")} is not a readable zip archive \\(ENOENT: no such file or directory, open '[^']+'\\); nothing was imported\\n$`));
  });

  it("corrupt JSON, a zip that is no Slack export, and a message from an unknown user; each leaves the target empty", async () => {
    const t = await target();
    const corrupt = path.join(work, "corrupt.zip");
    await writeZip(corrupt, exportEntries({ "general/2024-03-02.json": Buffer.from('[{"ts": "1709377200.1", "user": "U001", "text": "cut') }));
    await refuse(t.env, corrupt, /^rookery: general\/2024-03-02\.json is not valid JSON \(.+\); nothing was imported\n$/);
    const notSlack = path.join(work, "not-slack.zip");
    await writeZip(notSlack, [["readme.txt", Buffer.from("hello")]]);
    await refuse(t.env, notSlack, "rookery: the archive has no users.json: it is not a Slack workspace export; nothing was imported\n");
    const badList = path.join(work, "bad-list.zip");
    await writeZip(badList, exportEntries({ "channels.json": { channels: [] } }));
    await refuse(t.env, badList, "rookery: channels.json is not a list of objects as in a Slack export; nothing was imported\n");
    // Fails while writing, after the held file was stored: the transaction rolls back and the file goes.
    const unknown = path.join(work, "unknown-user.zip");
    await writeZip(unknown, exportEntries({ "secret/2024-03-01.json": [message("1709291200.000000", "U999", "who am I")] }));
    await refuse(t.env, unknown, "rookery: secret/2024-03-01.json refers to the user U999, who is not in users.json; nothing was imported\n");
    const uploads = path.join(t.dataDir, "uploads");
    expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
    // The target is still empty: the whole export imports into it.
    const run = await runRookery(main, ["import-slack", exportFile, "--json"], t.env);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { messages: number }).messages).toBe(11);
  });
});
