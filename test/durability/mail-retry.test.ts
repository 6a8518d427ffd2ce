import fs from "node:fs";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../src/app.js";
import { FIRST_RETRY_MS, undeliveredNotice } from "../../src/actions/mail.js";
import { Client, success } from "../harness/client.js";
import { startServer, TestClock, type TestServer } from "../harness/server.js";
import { startSmtp, type TestSmtp } from "../harness/smtp.js";

// Mail is queued in the database and tried again with backoff for a day, across restarts.
let smtp: TestSmtp;
const cleanups: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.stop());
afterEach(async () => {
  smtp.refusing = false;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const FROM = "Acme Chat <chat@acme.example>";

async function server(): Promise<TestServer> {
  const started = await startServer({ smtpUrl: smtp.url, emailFrom: FROM });
  cleanups.push(() => started.stop());
  return started;
}

async function metric(url: string, outcome: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`rookery_mail_attempts_total{outcome="${outcome}"}`));
  return Number(line?.split(" ")[1]);
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function mailsTo(address: string) {
  return smtp.mails.filter((m) => m.to.includes(address));
}

describe("mail that arrives", () => {
  it("a refused invitation is queued, survives a restart, and arrives on the retry, from ROOKERY_EMAIL_FROM", async () => {
    const first = await server();
    smtp.refusing = true;
    const res = await first.as("iago").post("/invites", { invitee_emails: "late@example.com", stream_ids: [] });
    expect(res.body).toEqual(success());
    expect(mailsTo("late@example.com")).toEqual([]);
    expect(await metric(first.url, "deferred")).toBe(1);
    expect(await metric(first.url, "sent")).toBe(0);

    // The server stops before the retry; the next one, a retry's delay later, finds the mail queued.
    await first.app.close();
    smtp.refusing = false;
    const clock = new TestClock(first.clock.now() + FIRST_RETRY_MS);
    const second: App = await buildApp(first.app.ctx.config, { clock, logger: pino({ level: "silent" }) });
    const url = await second.http.listen({ host: "127.0.0.1", port: 0 });
    cleanups.splice(0, cleanups.length, async () => {
      await second.close();
      fs.rmSync(first.dataDir, { recursive: true, force: true });
    });
    await until(() => mailsTo("late@example.com").length === 1);
    // The pass that sent it ends with the mail's row deleted and counted.
    await second.ctx.mail.idle();
    const [mail] = mailsTo("late@example.com");
    expect(mail?.from).toBe("chat@acme.example");
    const raw = mail?.raw.replace(/=\r?\n/g, "") ?? "";
    expect(raw).toContain("From: Acme Chat <chat@acme.example>");
    expect(raw).toContain("Subject: Iago invited you to join Zulip Dev");
    expect(raw).toContain(`Iago (iago@zulip.com) wants you to join them in Zulip Dev, at ${first.app.ctx.config.externalUrl}.`);
    expect(raw).not.toContain("on Zulip");
    expect(await metric(url, "sent")).toBe(1);
    expect(await second.ctx.db.selectFrom("outgoing_mail").selectAll().execute()).toEqual([]);
    // Sent once, never again.
    clock.advance(3600);
    await second.ctx.mail.runDue();
    expect(mailsTo("late@example.com")).toHaveLength(1);
  });

  it("a mail refused for a day is given up on: logged, counted, and its sender hears from Notification Bot", async () => {
    const s = await server();
    smtp.refusing = true;
    await s.as("iago").post("/invites", { invitee_emails: "never@example.com", stream_ids: [] });
    const tries = async () => Number((await s.app.ctx.db.selectFrom("outgoing_mail").select("attempts").executeTakeFirstOrThrow()).attempts);
    // Backoff: 1, 2, 4, 8, 16, 32 minutes, then hourly; moving the clock 59 s finds nothing due.
    s.clock.advance(59);
    await s.app.ctx.mail.runDue();
    expect(await tries()).toBe(1);
    s.clock.advance(1);
    await s.app.ctx.mail.runDue();
    expect(await tries()).toBe(2);
    for (let hour = 0; hour < 24; hour++) {
      s.clock.advance(3600);
      await s.app.ctx.mail.runDue();
    }
    expect(mailsTo("never@example.com")).toEqual([]);
    const row = await s.app.ctx.db.selectFrom("outgoing_mail").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 2, to_address: "never@example.com" });
    expect(row.last_error).toContain("Mailbox busy, try again later");
    expect(await metric(s.url, "given_up")).toBe(1);
    expect(await metric(s.url, "deferred")).toBe(Number(row.attempts) - 1);
    const iago = new Client(s.url, { email: s.users.iago.delivery_email, apiKey: s.users.iago.api_key });
    const newest = (await iago.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, apply_markdown: false })).body.messages[0];
    expect(newest).toMatchObject({ sender_email: "notification-bot@zulip.com", type: "private", content: undeliveredNotice({ to_address: "never@example.com", subject: "Iago invited you to join Zulip Dev" }, row.last_error ?? "") });
    // Given up for good: no more tries.
    s.clock.advance(86_400);
    smtp.refusing = false;
    await s.app.ctx.mail.runDue();
    expect(mailsTo("never@example.com")).toEqual([]);
  });

  it("refuses a sender that is not an address, with one line", async () => {
    const { loadConfig } = await import("../../src/config.js");
    expect(() => loadConfig({ ROOKERY_EMAIL_FROM: "Acme <not an address>" })).toThrow('ROOKERY_EMAIL_FROM must be an email address or "Name <address>", got "Acme <not an address>"');
    expect(loadConfig({ ROOKERY_EMAIL_FROM: "chat@acme.example" }).emailFrom).toBe("chat@acme.example");
    expect(loadConfig({}).emailFrom).toBe("Rookery <noreply@rookery.invalid>");
  });
});
