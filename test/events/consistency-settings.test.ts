import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

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
    // Events only: realm-user.ts applies every field of an update (Zulip updates only fields the person already has).
    const eventsOnly = { eventTypes: ["realm_user"], fetchEventTypes: ["user_status"], changesState: false };
    const events = await checkAction(server, "othello", () => server.as("cordelia").patch("/settings", { email_address_visibility: 3 }), eventsOnly);
    const host = new URL(server.app.ctx.config.externalUrl).hostname;
    expect(events.map((e) => e.person)).toEqual([
      { user_id: cordelia.id, delivery_email: null },
      { user_id: cordelia.id, new_email: `user${cordelia.id}@${host}` },
      expect.objectContaining({ user_id: cordelia.id, avatar_source: "G", avatar_version: 1 }),
    ]);
    const admin = await checkAction(server, "iago", () => server.as("cordelia").patch("/settings", { email_address_visibility: 1 }), eventsOnly);
    expect(admin.map((e) => e.person)).toEqual([
      { user_id: cordelia.id, new_email: cordelia.delivery_email },
      expect.objectContaining({ user_id: cordelia.id }),
    ]);
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
