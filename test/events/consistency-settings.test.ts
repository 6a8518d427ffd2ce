import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { startSmtp, type TestSmtp } from "../harness/smtp.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

/** Opens the confirmation link of the last mail to `email`. */
async function confirmNewEmail(email: string): Promise<void> {
  const mail = [...smtp.mails].reverse().find((m) => m.to.includes(email));
  const match = /(\/accounts\/confirm_new_email\/[A-Za-z0-9]+\/)/.exec(mail?.raw.replace(/=\r?\n/g, "") ?? "");
  if (!match?.[1]) throw new Error(`no confirmation mail to ${email}`);
  expect((await fetch(server.url + match[1])).status).toBe(200);
}

const MODERN = { notification_settings_null: true, user_settings_object: true };
const hamletEmail = () => server.users.hamlet.email;

describe("consistency of /register state and events: settings", () => {
  it("a display setting, for a client with user_settings_object: user_settings only", async () => {
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").patch("/settings", { color_scheme: 3 }), {
      capabilities: MODERN,
    });
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([{ type: "user_settings", op: "update", property: "color_scheme", value: 3 }]);
  });

  it("a display setting, for a legacy client: also update_display_settings, and the top-level copy", async () => {
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").patch("/settings", { emojiset: "text" }));
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([
      { type: "user_settings", op: "update", property: "emojiset", value: "text" },
      { type: "update_display_settings", user: hamletEmail(), setting_name: "emojiset", setting: "text" },
    ]);
  });

  it("a notification setting, for a legacy client: also update_global_notifications", async () => {
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").patch("/settings", { enable_sounds: false }));
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([
      { type: "user_settings", op: "update", property: "enable_sounds", value: false },
      { type: "update_global_notifications", user: hamletEmail(), notification_name: "enable_sounds", setting: false },
    ]);
  });

  it("a modern setting sends no legacy event", async () => {
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").patch("/settings", { web_font_size_px: 16 }));
    expect(events.map((e) => e.type)).toEqual(["user_settings"]);
  });

  it("default_language carries language_name", async () => {
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").patch("/settings", { default_language: "de" }));
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([
      { type: "user_settings", op: "update", property: "default_language", value: "de", language_name: "Deutsch" },
      { type: "update_display_settings", user: hamletEmail(), setting_name: "default_language", setting: "de", language_name: "Deutsch" },
    ]);
  });

  it("timezone: user_settings, the legacy event and realm_user to everyone", async () => {
    const events = await checkAction(server, "othello", () => server.as("hamlet").patch("/settings", { timezone: "Asia/Tokyo" }));
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([
      { type: "realm_user", op: "update", person: { email: hamletEmail(), user_id: server.users.hamlet.id, timezone: "Asia/Tokyo" } },
    ]);
    const own = await checkAction(server, "hamlet", () => server.as("hamlet").patch("/settings", { timezone: "Europe/Rome" }));
    expect(own.map((e) => e.type)).toEqual(["user_settings", "update_display_settings", "realm_user"]);
  });

  it("several settings at once, unchanged values skipped", async () => {
    const events = await checkAction(
      server,
      "hamlet",
      () => server.as("hamlet").patch("/settings", { enter_sends: true, twenty_four_hour_time: false, send_read_receipts: false }),
      { capabilities: MODERN },
    );
    expect(events.map((e) => e.property)).toEqual(["enter_sends", "send_read_receipts"]);
  });

  it("email_address_visibility: the address hides from members and the API email changes", async () => {
    const cordelia = server.users.cordelia;
    const events = await checkAction(server, "othello", () => server.as("cordelia").patch("/settings", { email_address_visibility: 3 }), { eventTypes: ["realm_user"] });
    const host = new URL(server.app.ctx.config.externalUrl).hostname;
    expect(events.map((e) => e.person)).toEqual([
      { user_id: cordelia.id, delivery_email: null },
      { user_id: cordelia.id, new_email: `user${cordelia.id}@${host}` },
      expect.objectContaining({ user_id: cordelia.id, avatar_source: "G", avatar_version: 1 }),
    ]);
    const admin = await checkAction(server, "iago", () => server.as("cordelia").patch("/settings", { email_address_visibility: 1 }), { eventTypes: ["realm_user"] });
    expect(admin.map((e) => e.person)).toEqual([
      { user_id: cordelia.id, new_email: cordelia.delivery_email },
      expect.objectContaining({ user_id: cordelia.id }),
    ]);
  });

  it("a confirmed email change: delivery_email to who may see it, the Gravatar URL, and the public API email", async () => {
    const shiva = server.users.shiva;
    await server.as("shiva").patch("/settings", { email: "shiva@elsinore.example.com" });
    const events = await checkAction(server, "othello", () => confirmNewEmail("shiva@elsinore.example.com"));
    expect(events.map((e) => e.person)).toEqual([
      { user_id: shiva.id, delivery_email: "shiva@elsinore.example.com" },
      {
        user_id: shiva.id,
        avatar_source: "G",
        avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
        avatar_url_medium: expect.stringContaining("s=500"),
        avatar_version: 1,
      },
      { user_id: shiva.id, new_email: "shiva@elsinore.example.com" },
    ]);
  });

  it("a confirmed email change of a hidden address: only the avatar for members, delivery_email for administrators", async () => {
    const polonius = server.users.polonius;
    await server.as("polonius").patch("/settings", { email_address_visibility: 3 });
    await server.as("polonius").patch("/settings", { email: "polonius@elsinore.example.com" });
    const member = await checkAction(server, "othello", async () => {
      await confirmNewEmail("polonius@elsinore.example.com");
    });
    expect(member.map((e) => Object.keys(e.person))).toEqual([["user_id", "avatar_source", "avatar_url", "avatar_url_medium", "avatar_version"]]);
    const mover = new Client(server.url, { email: "polonius@elsinore.example.com", apiKey: polonius.api_key });
    await mover.patch("/settings", { email: "polonius@wittenberg.example.com" });
    const admin = await checkAction(server, "iago", () => confirmNewEmail("polonius@wittenberg.example.com"));
    expect(admin.map((e) => e.person.delivery_email)).toEqual(["polonius@wittenberg.example.com", undefined]);
  });

  it("realm defaults: one event per changed value, to every user", async () => {
    const events = await checkAction(
      server,
      "hamlet",
      () => server.as("iago").patch("/realm/user_settings_defaults", { enter_sends: true, user_list_style: 3, web_home_view: "all_messages" }),
    );
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([
      { type: "realm_user_settings_defaults", op: "update", property: "web_home_view", value: "all_messages" },
      { type: "realm_user_settings_defaults", op: "update", property: "enter_sends", value: true },
      { type: "realm_user_settings_defaults", op: "update", property: "user_list_style", value: 3 },
    ]);
  });

  it("turning off draft synchronisation deletes drafts without drafts events", async () => {
    const created = await server.as("hamlet").post("/drafts", { drafts: [{ type: "", to: [], topic: "", content: "keep me?" }] });
    expect(created.status).toBe(200);
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").patch("/settings", { enable_drafts_synchronization: false }), {
      capabilities: MODERN,
    });
    expect(events.map((e) => e.type)).toEqual(["user_settings"]);
    expect(await server.app.ctx.db.selectFrom("draft").selectAll().where("user_id", "=", server.users.hamlet.id).execute()).toEqual([]);
    await server.as("hamlet").patch("/settings", { enable_drafts_synchronization: true });
  });
});
