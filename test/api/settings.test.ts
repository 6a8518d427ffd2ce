import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function ownSettings(who: "hamlet" | "othello" | "iago" | "cordelia" | "polonius"): Promise<Record<string, unknown>> {
  const res = await server.as(who).post("/register", { fetch_event_types: ["user_settings"], client_capabilities: { notification_settings_null: true, user_settings_object: true } });
  expect(res.status).toBe(200);
  return res.body.user_settings;
}

describe("PATCH /settings", () => {
  it("starts every user from the catalogue's defaults", async () => {
    const s = await ownSettings("hamlet");
    expect(s).toMatchObject({
      twenty_four_hour_time: false,
      dense_mode: true,
      web_home_view: "inbox",
      emojiset: "google",
      color_scheme: 1,
      enable_drafts_synchronization: true,
      notification_sound: "zulip",
      email_notifications_batching_period_seconds: 120,
      automatically_follow_topics_policy: 3,
      automatically_unmute_topics_in_muted_streams_policy: 2,
      web_animate_image_previews: "on_hover",
      web_channel_default_view: 1,
      presence_enabled: true,
      email_address_visibility: 1,
      timezone: "",
      default_language: "en",
      available_notification_sounds: ["chime", "ding", "zulip"],
    });
    expect(s.emojiset_choices).toEqual([
      { key: "google", text: "Google" },
      { key: "twitter", text: "Twitter" },
      { key: "text", text: "Plain text" },
      { key: "google-blob", text: "Google blobs" },
    ]);
  });

  it("changes booleans, integers and strings and reports unknown parameters", async () => {
    const res = await server.as("othello").patch("/settings", {
      twenty_four_hour_time: true,
      color_scheme: 2,
      web_home_view: "recent_topics",
      emojiset: "twitter",
      notification_sound: "ding",
      default_language: "de",
      timezone: "Europe/Berlin",
      web_font_size_px: 17,
      bogus: "x",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ ignored_parameters_unsupported: ["bogus"] }));
    expect(await ownSettings("othello")).toMatchObject({
      twenty_four_hour_time: true,
      color_scheme: 2,
      web_home_view: "recent_topics",
      emojiset: "twitter",
      notification_sound: "ding",
      default_language: "de",
      timezone: "Europe/Berlin",
      web_font_size_px: 17,
    });
    const me = await server.as("othello").get("/users/me");
    expect(me.body.timezone).toBe("Europe/Berlin");
  });

  it.each([
    [{ color_scheme: 4 }, "Invalid color_scheme"],
    [{ color_scheme: "dark" }, "color_scheme is not valid JSON"],
    [{ color_scheme: 1.5 }, "color_scheme is not an integer"],
    [{ twenty_four_hour_time: "yes" }, "twenty_four_hour_time is not valid JSON"],
    [{ twenty_four_hour_time: 1 }, "twenty_four_hour_time is not a boolean"],
    [{ web_home_view: "home" }, "Invalid web_home_view"],
    [{ emojiset: "apple" }, "Invalid emojiset"],
    [{ web_animate_image_previews: "sometimes" }, "Invalid web_animate_image_previews"],
    [{ demote_inactive_streams: 0 }, "Invalid demote_inactive_streams"],
    [{ desktop_icon_count_display: 5 }, "Invalid desktop_icon_count_display"],
    [{ email_address_visibility: 6 }, "Invalid email_address_visibility"],
    [{ web_channel_default_view: 3 }, "Invalid web_channel_default_view"],
    [{ email_notifications_batching_period_seconds: 0 }, "Invalid email batching period: 0 seconds"],
    [{ email_notifications_batching_period_seconds: 604801 }, "Invalid email batching period: 604801 seconds"],
    [{ notification_sound: "boom" }, "Invalid notification sound 'boom'"],
    [{ default_language: "xx" }, "Invalid default_language"],
    [{ timezone: "Mars/Olympus" }, "timezone is not a recognized time zone"],
    [{ full_name: "" }, "Name must not be empty!"],
  ])("refuses %j", async (params, msg) => {
    const res = await server.as("cordelia").patch("/settings", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("accepts the boundaries and 'none' as a sound", async () => {
    const res = await server.as("cordelia").patch("/settings", {
      email_notifications_batching_period_seconds: 604800,
      notification_sound: "none",
      web_font_size_px: 1000,
    });
    expect(res.body).toEqual(success());
    expect(await ownSettings("cordelia")).toMatchObject({
      email_notifications_batching_period_seconds: 604800,
      notification_sound: "none",
      web_font_size_px: 1000,
    });
  });

  it("writes nothing when one value of the request is invalid", async () => {
    const res = await server.as("cordelia").patch("/settings", { enter_sends: true, color_scheme: 9 });
    expect(res.body).toEqual(error("Invalid color_scheme"));
    expect((await ownSettings("cordelia")).enter_sends).toBe(false);
  });

  it("changes the full name", async () => {
    const res = await server.as("cordelia").patch("/settings", { full_name: "  Cordelia L.  " });
    expect(res.body).toEqual(success());
    expect((await server.as("cordelia").get("/users/me")).body.full_name).toBe("Cordelia L.");
  });

  it("refuses bots, whatever the values", async () => {
    expect((await server.as("bot").patch("/settings", { color_scheme: 99 })).body).toEqual(error("This endpoint does not accept bot requests."));
    const res = await server.as("bot").patch("/settings", { enter_sends: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("This endpoint does not accept bot requests."));
  });

  it("is allowed to guests", async () => {
    const res = await server.as("polonius").patch("/settings", { enter_sends: true });
    expect(res.body).toEqual(success());
    expect((await ownSettings("polonius")).enter_sends).toBe(true);
  });
});

describe("PATCH /realm/user_settings_defaults", () => {
  it.each(["hamlet", "shiva", "polonius"] as const)("refuses %s (not an administrator)", async (who) => {
    const res = await server.as(who).patch("/realm/user_settings_defaults", { enter_sends: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
  });

  it("refuses a non-administrator before looking at the values", async () => {
    const res = await server.as("hamlet").patch("/realm/user_settings_defaults", { color_scheme: 99 });
    expect(res.body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
  });

  it("validates as PATCH /settings does", async () => {
    const res = await server.as("iago").patch("/realm/user_settings_defaults", { color_scheme: 7 });
    expect(res.body).toEqual(error("Invalid color_scheme"));
  });

  it("ignores the settings that have no organisation default", async () => {
    const res = await server.as("iago").patch("/realm/user_settings_defaults", {
      default_language: "de",
      timezone: "Europe/Paris",
      enable_login_emails: false,
      enable_marketing_emails: false,
      full_name: "x",
    });
    expect(res.body).toEqual(
      success({ ignored_parameters_unsupported: ["default_language", "enable_login_emails", "enable_marketing_emails", "full_name", "timezone"] }),
    );
  });

  it("changes defaults for new users only", async () => {
    const res = await server.as("desdemona").patch("/realm/user_settings_defaults", {
      twenty_four_hour_time: true,
      emojiset: "text",
      email_address_visibility: 4,
      enable_drafts_synchronization: false,
    });
    expect(res.body).toEqual(success());
    const state = await server.as("hamlet").post("/register", { fetch_event_types: ["realm_user_settings_defaults"] });
    expect(state.body.realm_user_settings_defaults).toMatchObject({
      twenty_four_hour_time: true,
      emojiset: "text",
      email_address_visibility: 4,
      enable_drafts_synchronization: false,
      default_language: "en",
      enable_login_emails: true,
    });
    expect(state.body.realm_user_settings_defaults.timezone).toBeUndefined();
    expect((await ownSettings("hamlet")).twenty_four_hour_time).toBe(false);

    const created = await server.as("iago").post("/users", { email: "newcomer@zulip.com", password: "pw-123456", full_name: "Newcomer" });
    expect(created.status).toBe(200);
    const id: number = created.body.user_id;
    const user = await server.app.ctx.users.get(id);
    if (!user) throw new Error("missing user");
    const mine = await server.as(user).post("/register", { fetch_event_types: ["user_settings"], client_capabilities: { notification_settings_null: true, user_settings_object: true } });
    expect(mine.body.user_settings).toMatchObject({ twenty_four_hour_time: true, emojiset: "text", email_address_visibility: 4, enable_drafts_synchronization: false });
    const seen = await server.as("hamlet").get(`/users/${id}`);
    expect(seen.body.user.email).toBe(`user${id}@${new URL(server.app.ctx.config.externalUrl).hostname}`);
    expect(seen.body.user.delivery_email).toBeNull();
  });
});
