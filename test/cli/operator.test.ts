import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCommand } from "../harness/build.js";
import { runRookery } from "../harness/cli.js";
import { freePort, spawnServer } from "../harness/process.js";
import { startSmtp, type TestSmtp } from "../harness/smtp.js";

// One server of one process; every command runs beside it, as an operator would.
let main: string;
let remove: () => void;
let server: ChildProcess;
let dataDir: string;
let smtp: TestSmtp;
let url: string;
let env: NodeJS.ProcessEnv;
let ownerAuth: string;
const keys: Record<string, string> = {};

const rookery = (args: string[]) => runRookery(main, args, env);
const basic = (email: string, key: string) => "Basic " + Buffer.from(`${email}:${key}`).toString("base64");

async function me(email: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/api/v1/users/me`, { headers: { authorization: basic(email, keys[email] ?? "") } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The owner's queue of realm_user events; `read()` returns what arrived since the last read. */
async function ownerQueue(): Promise<() => Promise<Record<string, unknown>[]>> {
  const registered = await fetch(`${url}/api/v1/register`, {
    method: "POST",
    headers: { authorization: ownerAuth, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ event_types: '["realm_user"]' }).toString(),
  });
  const { queue_id: queueId } = (await registered.json()) as { queue_id: string };
  let last = -1;
  return async () => {
    const res = await fetch(`${url}/api/v1/events?${new URLSearchParams({ queue_id: queueId, last_event_id: String(last), dont_block: "true" })}`, { headers: { authorization: ownerAuth } });
    const events = ((await res.json()) as { events: { id: number; type: string }[] }).events.filter((e) => e.type !== "heartbeat");
    last = Math.max(last, ...events.map((e) => e.id));
    return events.map(({ id: _id, ...rest }) => rest);
  };
}

beforeAll(async () => {
  ({ main, remove } = await buildCommand("cli-operator"));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-operator-"));
  smtp = await startSmtp();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  env = { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_PORT: String(port), ROOKERY_LOG_LEVEL: "warn", ROOKERY_SMTP_URL: smtp.url };
  const started = await spawnServer(main, env);
  server = started.child;
  keys["owner@rookery.local"] = /key=([A-Za-z0-9]{32})/.exec(started.out())?.[1] ?? "";
  ownerAuth = basic("owner@rookery.local", keys["owner@rookery.local"]!);
  for (const [email, name, role] of [
    ["ann@example.test", "Ann", "admin"],
    ["bob@example.test", "Bob", "member"],
  ] as const) {
    const made = JSON.parse((await rookery(["create-user", "--email", email, "--name", name, "--role", role, "--password", "pw-123456", "--json"])).stdout) as { api_key: string };
    keys[email] = made.api_key;
  }
  await rookery(["create-user", "--email", "helper-bot@example.test", "--name", "Helper", "--bot"]);
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => {
    if (server.exitCode !== null) return resolve();
    server.once("exit", () => resolve());
    server.kill("SIGTERM");
  });
  await smtp.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  remove();
});

describe("rookery users", () => {
  it("lists every user with role and state, as a table or as JSON", async () => {
    const json = await rookery(["users", "--json"]);
    expect(json).toMatchObject({ code: 0, stderr: "" });
    const { users } = JSON.parse(json.stdout) as { users: { user_id: number; email: string }[] };
    expect(users.map(({ user_id: _id, ...rest }) => rest)).toEqual([
      { email: "owner@rookery.local", full_name: "Owner", role: "owner", is_active: true, is_bot: false },
      { email: "ann@example.test", full_name: "Ann", role: "admin", is_active: true, is_bot: false },
      { email: "bob@example.test", full_name: "Bob", role: "member", is_active: true, is_bot: false },
      { email: "helper-bot@example.test", full_name: "Helper", role: "member", is_active: true, is_bot: true },
    ]);
    const ids = users.map((u) => u.user_id);
    const text = await rookery(["users"]);
    expect(text.stdout).toBe(
      [
        "ID  EMAIL                    NAME    ROLE          STATE",
        `${ids[0]}   owner@rookery.local      Owner   owner         active`,
        `${ids[1]}   ann@example.test         Ann     admin         active`,
        `${ids[2]}   bob@example.test         Bob     member        active`,
        `${ids[3]}   helper-bot@example.test  Helper  member (bot)  active`,
        "",
      ]
        .map((line) => line.replace(/^(\d+) {3}/, (_m, id: string) => id.padEnd(4)))
        .join("\n"),
    );
  });
});

describe("rookery deactivate / reactivate", () => {
  it("deactivates a user: the running server refuses the key at once and clients hear of it", async () => {
    const read = await ownerQueue();
    const bob = (await me("bob@example.test")).body.user_id as number;
    const res = await rookery(["deactivate", "--email", "bob@example.test", "--json"]);
    expect(res).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(res.stdout)).toEqual({ user_id: bob, email: "bob@example.test", full_name: "Bob", role: "member", is_active: false, is_bot: false });
    expect(await me("bob@example.test")).toEqual({ status: 401, body: { result: "error", msg: "Account is deactivated", code: "UNAUTHORIZED" } });
    expect(await read()).toEqual([{ type: "realm_user", op: "update", person: { user_id: bob, is_active: false } }]);

    expect(await rookery(["deactivate", "--email", "bob@example.test"])).toMatchObject({ code: 1, stdout: "", stderr: "rookery: User is deactivated\n" });
    const back = await rookery(["reactivate", "--email", "bob@example.test"]);
    expect(back).toMatchObject({ code: 0, stderr: "", stdout: `user_id: ${bob}\nemail: bob@example.test\nfull_name: Bob\nrole: member\nis_active: true\nis_bot: false\n` });
    expect((await me("bob@example.test")).status).toBe(200);
    expect(await read()).toEqual([{ type: "realm_user", op: "update", person: { user_id: bob, is_active: true } }]);
    expect(await rookery(["reactivate", "--email", "bob@example.test"])).toMatchObject({ code: 1, stdout: "", stderr: "rookery: User is already active\n" });
  });

  it("refuses the only owner and unknown addresses with one line", async () => {
    expect(await rookery(["deactivate", "--email", "owner@rookery.local", "--json"])).toMatchObject({ code: 1, stdout: "", stderr: "rookery: Cannot deactivate the only organization owner\n" });
    expect(await rookery(["deactivate", "--email", "nobody@example.test"])).toMatchObject({ code: 1, stderr: "rookery: No user with email nobody@example.test\n" });
    expect(await rookery(["reactivate", "--email", "notification-bot@zulip.com"])).toMatchObject({ code: 1, stderr: "rookery: No user with email notification-bot@zulip.com\n" });
    expect((await me("owner@rookery.local")).status).toBe(200);
  });
});

describe("rookery set-role", () => {
  it("changes a role: the server answers with the new role at once and clients hear of it", async () => {
    const read = await ownerQueue();
    const res = await rookery(["set-role", "--email", "bob@example.test", "--role", "moderator", "--json"]);
    expect(res).toMatchObject({ code: 0, stderr: "" });
    const bob = (await me("bob@example.test")).body;
    expect(JSON.parse(res.stdout)).toEqual({ user_id: bob.user_id, email: "bob@example.test", full_name: "Bob", role: "moderator", is_active: true, is_bot: false });
    expect(bob.role).toBe(300);
    const events = await read();
    expect(events[0]).toEqual({ type: "realm_user", op: "update", person: { user_id: bob.user_id, role: 300 } });
  });

  it("keeps the only owner an owner, and refuses an unknown role", async () => {
    expect(await rookery(["set-role", "--email", "owner@rookery.local", "--role", "member"])).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "rookery: The owner permission cannot be removed from the only organization owner.\n",
    });
    const king = await rookery(["set-role", "--email", "bob@example.test", "--role", "king"]);
    expect(king.code).toBe(1);
    expect(king.stderr).toContain("error: option '--role <role>' argument 'king' is invalid. Allowed choices are owner, admin, moderator, member, guest.");
    // A second owner may then lose the role.
    expect((await rookery(["set-role", "--email", "ann@example.test", "--role", "owner"])).code).toBe(0);
    expect((await rookery(["set-role", "--email", "owner@rookery.local", "--role", "admin"])).code).toBe(0);
    expect((await me("owner@rookery.local")).body.role).toBe(200);
    expect((await rookery(["set-role", "--email", "owner@rookery.local", "--role", "owner"])).code).toBe(0);
  });
});

describe("rookery reset-password", () => {
  it("prints a one-time link with --print-link, or mails it naming the organisation", async () => {
    const printed = await rookery(["reset-password", "--email", "bob@example.test", "--print-link", "--json"]);
    expect(printed).toMatchObject({ code: 0, stderr: "" });
    const out = JSON.parse(printed.stdout) as { user_id: number; email: string; link: string };
    expect(Object.keys(out)).toEqual(["user_id", "email", "link"]);
    expect(out.link).toMatch(new RegExp(`^${url}/accounts/password/reset/[A-Za-z0-9]{32}/$`));
    const before = smtp.mails.length;
    const mailed = await rookery(["reset-password", "--email", "bob@example.test", "--json"]);
    expect(mailed).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(mailed.stdout)).toEqual({ user_id: out.user_id, email: "bob@example.test", mail: "sent" });
    const mail = smtp.mails[before];
    expect(mail?.to).toEqual(["bob@example.test"]);
    const raw = mail?.raw.replace(/=\r?\n/g, "") ?? "";
    expect(raw).toContain("Subject: Reset your password for Rookery");
    expect(raw).toContain(`in Rookery (${url})`);
    expect(raw).toMatch(new RegExp(`${url}/accounts/password/reset/[A-Za-z0-9]{32}/`));
    expect(raw).not.toMatch(/zulip/i);
  });

  it("says when the mail server did not take the mail: it is queued, and the warning goes to stderr", async () => {
    smtp.refusing = true;
    try {
      const queued = await rookery(["reset-password", "--email", "bob@example.test", "--json"]);
      expect(queued.code).toBe(0);
      expect(JSON.parse(queued.stdout)).toEqual({ user_id: (await me("bob@example.test")).body.user_id, email: "bob@example.test", mail: "queued" });
      expect(JSON.parse(queued.stderr)).toMatchObject({ level: 40, to: "bob@example.test", attempts: 1, msg: "mail not accepted; it will be tried again" });
    } finally {
      smtp.refusing = false;
    }
  });

  it("refuses bots and deactivated users", async () => {
    expect(await rookery(["reset-password", "--email", "helper-bot@example.test"])).toMatchObject({
      code: 1,
      stderr: "rookery: helper-bot@example.test is a bot: bots have no password (they use their API key)\n",
    });
    await rookery(["deactivate", "--email", "ann@example.test"]);
    expect(await rookery(["reset-password", "--email", "ann@example.test", "--print-link"])).toMatchObject({ code: 1, stderr: "rookery: User is deactivated\n" });
    await rookery(["reactivate", "--email", "ann@example.test"]);
  });
});

describe("rookery change-email", () => {
  it("changes the address at once, tells the old one, and the user logs in with the new one", async () => {
    const before = smtp.mails.length;
    const res = await rookery(["change-email", "--email", "bob@example.test", "--new-email", "robert@example.test", "--json"]);
    expect(res).toMatchObject({ code: 0, stderr: "" });
    const out = JSON.parse(res.stdout) as Record<string, unknown>;
    expect(out).toEqual({ user_id: out.user_id, email: "robert@example.test", full_name: "Bob", role: "moderator", is_active: true, is_bot: false, old_email: "bob@example.test" });
    const login = await fetch(`${url}/api/v1/fetch_api_key`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "robert@example.test", password: "pw-123456" }).toString(),
    });
    expect(((await login.json()) as { email: string }).email).toBe("robert@example.test");
    const notice = smtp.mails[before];
    expect(notice?.to).toEqual(["bob@example.test"]);
    expect(notice?.raw.replace(/=\r?\n/g, "")).toContain(`in Rookery (${url}) has been changed to robert@example.test`);
  });

  it("refuses with Zulip's messages", async () => {
    const change = (to: string) => rookery(["change-email", "--email", "robert@example.test", "--new-email", to, "--json"]);
    expect(await change("ann@example.test")).toMatchObject({ code: 1, stdout: "", stderr: "rookery: Already has an account.\n" });
    expect(await change("not-an-address")).toMatchObject({ code: 1, stderr: "rookery: Invalid address.\n" });
    expect(await change("notification-bot@zulip.com")).toMatchObject({ code: 1, stderr: "rookery: Reserved for system bots.\n" });
    await rookery(["deactivate", "--email", "ann@example.test"]);
    expect(await change("ann@example.test")).toMatchObject({ code: 1, stderr: "rookery: Account has been deactivated.\n" });
    await rookery(["reactivate", "--email", "ann@example.test"]);
  });
});
