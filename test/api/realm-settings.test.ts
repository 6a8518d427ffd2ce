import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { error, success } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createChannels, type Channels } from "./messages-fixtures.js";
import { groupIdOf, groupIdsByName } from "./user-groups-helpers.js";

let server: TestServer;
let groups: Record<string, number>;
let channels: Channels;
beforeAll(async () => {
  server = await startServer();
  groups = await groupIdsByName(server);
  channels = await createChannels(server);
});
afterAll(() => server.stop());

const patch = (who: FixtureName, params: Record<string, Json>) => server.as(who).patch("/realm", params);
const state = async (): Promise<Json> => (await server.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body;
const group = (name: string): number => groups[name] ?? 0;
const ADMIN_REQUIRED = error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
const OWNER_REQUIRED = error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
const badValue = (name: string, value: string | number) => error(`Bad value for '${name}': ${value}`, "REQUEST_VARIABLE_INVALID", { var_name: name, bad_value: value });

describe("PATCH /realm: who may", () => {
  it("refuses members, moderators, guests and bots before reading the values", async () => {
    for (const who of ["hamlet", "shiva", "polonius", "bot"] as const) {
      expect((await patch(who, { name: "Mine now" })).body).toEqual(ADMIN_REQUIRED);
      expect((await patch(who, { delete_own_message_policy: "not json" })).body).toEqual(ADMIN_REQUIRED);
    }
    expect((await state()).realm_name).toBe("Zulip Dev");
  });

  it("lets administrators change the organisation's settings and answers with what changed", async () => {
    expect((await patch("iago", { name: "Rookery", allow_edit_history: false, delete_own_message_policy: 4 })).body).toEqual(
      success({ name: "updated", allow_edit_history: false, delete_own_message_policy: 4 }),
    );
    const after = await state();
    expect([after.realm_name, after.realm_allow_edit_history, after.realm_delete_own_message_policy]).toEqual(["Rookery", false, 4]);
    // Values that are already set change nothing and are not reported.
    expect((await patch("iago", { name: "Rookery", delete_own_message_policy: 4 })).body).toEqual(success());
  });

  it("keeps some settings to owners", async () => {
    const ownerOnly: Record<string, Json> = {
      invite_required: false,
      invite_to_realm_policy: 2,
      create_multiuse_invite_group: group("role:moderators"),
      emails_restricted_to_domains: true,
      disallow_disposable_email_addresses: false,
      waiting_period_threshold: "2",
      message_retention_days: 10,
      authentication_methods: { Email: true },
      string_id: "elsewhere",
    };
    for (const [name, value] of Object.entries(ownerOnly)) expect((await patch("iago", { [name]: value })).body, name).toEqual(OWNER_REQUIRED);
    expect((await patch("desdemona", { invite_required: false, invite_to_realm_policy: 2, disallow_disposable_email_addresses: false })).body).toEqual(
      success({ disallow_disposable_email_addresses: false, invite_required: false, invite_to_realm_policy: 2 }),
    );
    const after = await state();
    expect([after.realm_invite_required, after.realm_invite_to_realm_policy, after.realm_disallow_disposable_email_addresses]).toEqual([false, 2, false]);
    expect((await patch("desdemona", { invite_required: true, invite_to_realm_policy: 1, disallow_disposable_email_addresses: true })).status).toBe(200);
  });

  it("reports parameters it does not know", async () => {
    expect((await patch("iago", { name: "Rookery", realm_colour: "blue" })).body).toEqual(success({ ignored_parameters_unsupported: ["realm_colour"] }));
  });
});

describe("PATCH /realm: values", () => {
  it("booleans and integers with choices", async () => {
    expect((await patch("iago", { mandatory_topics: "yes" })).body).toEqual(error("mandatory_topics is not valid JSON"));
    expect((await patch("iago", { mandatory_topics: 1 })).body).toEqual(error("mandatory_topics is not a boolean"));
    expect((await patch("iago", { wildcard_mention_policy: 4 })).body).toEqual(error("Invalid wildcard_mention_policy"));
    expect((await patch("iago", { edit_topic_policy: JSON.stringify("5") })).body).toEqual(error("edit_topic_policy is not an integer"));
    expect((await patch("iago", { digest_weekday: 7 })).body).toEqual(error("Invalid digest_weekday"));
    expect((await patch("iago", { bot_creation_policy: 3, create_web_public_stream_policy: 2, org_type: 35 })).body).toEqual(
      success({ bot_creation_policy: 3, create_web_public_stream_policy: 2, org_type: 35 }),
    );
    expect((await patch("iago", { org_type: 36 })).body).toEqual(error("Invalid org_type"));
    const after = await state();
    expect([after.realm_bot_creation_policy, after.realm_create_web_public_stream_policy, after.realm_org_type]).toEqual([3, 2, 35]);
  });

  it("text, with Zulip's limits; the default language must be one Zulip offers", async () => {
    expect((await patch("iago", { name: "x".repeat(41) })).body).toEqual(error("name is too long (limit: 40 characters)"));
    expect((await patch("iago", { description: "d".repeat(1001) })).body).toEqual(error("description is too long (limit: 1000 characters)"));
    expect((await patch("iago", { default_language: "xx" })).body).toEqual(error("Invalid language 'xx'"));
    expect((await patch("iago", { default_language: "toString" })).body).toEqual(error("Invalid language 'toString'"));
    expect((await patch("iago", { default_language: "de", default_code_block_language: "python", description: "We test." })).body).toEqual(
      success({ description: "updated", default_language: "updated", default_code_block_language: "updated" }),
    );
    const after = await state();
    expect([after.realm_description, after.realm_default_language, after.realm_default_code_block_language]).toEqual(["We test.", "de", "python"]);
  });

  it("video calls and GIFs take the server's options only", async () => {
    expect((await patch("iago", { video_chat_provider: 3 })).body).toEqual(error("Invalid video_chat_provider 3"));
    expect((await patch("iago", { giphy_rating: 6 })).body).toEqual(error("Invalid giphy_rating 6"));
    expect((await patch("iago", { video_chat_provider: 0, giphy_rating: 0 })).body).toEqual(success({ video_chat_provider: 0, giphy_rating: 0 }));
    for (const bad of ["ftp//nowhere", `https://${"j".repeat(200)}.example.com`, "jitsi.example.com"]) {
      expect((await patch("iago", { jitsi_server_url: JSON.stringify(bad) })).body).toEqual(error("jitsi_server_url is not an allowed_type"));
    }
    expect((await patch("iago", { jitsi_server_url: 5 })).body).toEqual(error("jitsi_server_url is not an allowed_type"));
    expect((await patch("iago", { jitsi_server_url: JSON.stringify("https://meet.example.org/") })).body).toEqual(success({ jitsi_server_url: "updated" }));
    const after = await state();
    expect([after.realm_jitsi_server_url, after.jitsi_server_url, after.server_jitsi_server_url]).toEqual(["https://meet.example.org/", "https://meet.example.org/", "https://meet.jit.si"]);
    expect((await patch("iago", { jitsi_server_url: JSON.stringify("default") })).body).toEqual(success({ jitsi_server_url: null }));
    expect((await state()).realm_jitsi_server_url).toBeNull();
  });

  it("time limits: a positive number of seconds or unlimited (null)", async () => {
    const name = "message_content_delete_limit_seconds";
    expect((await patch("iago", { [name]: 0 })).body).toEqual(badValue(name, 0));
    expect((await patch("iago", { [name]: JSON.stringify("forever") })).body).toEqual(badValue(name, "forever"));
    expect((await patch("iago", { [name]: 1.5 })).body).toEqual(error(`${name} is not a string or an integer`));
    expect((await patch("iago", { [name]: JSON.stringify("unlimited"), move_messages_within_stream_limit_seconds: 3600 })).body).toEqual(
      success({ [name]: null, move_messages_within_stream_limit_seconds: 3600 }),
    );
    const after = await state();
    expect([after.realm_message_content_delete_limit_seconds, after.realm_move_messages_within_stream_limit_seconds]).toEqual([null, 3600]);
    expect((await patch("iago", { [name]: 600 })).body).toEqual(success({ [name]: 600 }));
  });

  it("owners set the retention period and the waiting period", async () => {
    expect((await patch("desdemona", { message_retention_days: 0 })).body).toEqual(badValue("message_retention_days", 0));
    expect((await patch("desdemona", { waiting_period_threshold: "-1" })).body).toEqual(badValue("waiting_period_threshold", "-1"));
    expect((await patch("desdemona", { waiting_period_threshold: "1.5" })).body).toEqual(badValue("waiting_period_threshold", "1.5"));
    expect((await patch("desdemona", { message_retention_days: 90, waiting_period_threshold: "0" })).body).toEqual(success({ message_retention_days: 90 }));
    expect((await patch("desdemona", { message_retention_days: JSON.stringify("unlimited") })).body).toEqual(success({ message_retention_days: -1 }));
  });

  it("authentication methods: only the server's, and one must stay on", async () => {
    expect((await patch("desdemona", { authentication_methods: [] })).body).toEqual(error("authentication_methods is not a dict"));
    expect((await patch("desdemona", { authentication_methods: { GitHub: true } })).body).toEqual(
      error("Invalid authentication method: GitHub. Valid methods are: ['Email']"),
    );
    expect((await patch("desdemona", { authentication_methods: { Email: false } })).body).toEqual(error("At least one authentication method must be enabled."));
    expect((await patch("desdemona", { authentication_methods: { Email: true } })).body).toEqual(success());
  });

  it("the subdomain belongs to demo organisations only", async () => {
    expect((await patch("desdemona", { string_id: "x".repeat(41) })).body).toEqual(error("string_id is too long (limit: 40 characters)"));
    expect((await patch("desdemona", { string_id: "elsewhere" })).body).toEqual(error("Must be a demo organization."));
  });

  it("announcement channels: any channel of the realm, or -1 for none", async () => {
    expect((await patch("iago", { signup_announcements_stream_id: 99999 })).body).toEqual(error("Invalid channel ID"));
    expect((await patch("iago", { signup_announcements_stream_id: channels.vault, zulip_update_announcements_stream_id: channels.denmark })).body).toEqual(
      success({ signup_announcements_stream_id: channels.vault, zulip_update_announcements_stream_id: channels.denmark }),
    );
    const after = await state();
    expect([after.realm_signup_announcements_stream_id, after.realm_zulip_update_announcements_stream_id]).toEqual([channels.vault, channels.denmark]);
    expect((await patch("iago", { signup_announcements_stream_id: -1, zulip_update_announcements_stream_id: -1 })).status).toBe(200);
    expect((await state()).realm_signup_announcements_stream_id).toBe(-1);
  });

  it("a refused value anywhere in the request changes nothing", async () => {
    expect((await patch("iago", { name: "Half done", mandatory_topics: true, video_chat_provider: 9 })).body).toEqual(error("Invalid video_chat_provider 9"));
    expect((await patch("iago", { name: "Half done", signup_announcements_stream_id: 99999 })).body).toEqual(error("Invalid channel ID"));
    const after = await state();
    expect([after.realm_name, after.realm_mandatory_topics]).toEqual(["Rookery", false]);
  });
});

describe("PATCH /realm: group settings", () => {
  it("take the id of a system group the setting allows", async () => {
    expect((await patch("iago", { can_create_private_channel_group: "x" })).body).toEqual(error("can_create_private_channel_group is not valid JSON"));
    expect((await patch("iago", { can_create_private_channel_group: 99999 })).body).toEqual(error("Invalid user group"));
    await server.as("iago").post("/user_groups/create", { name: "Deciders", description: "", members: [server.users.hamlet.id] }, { validate: false });
    const custom = await groupIdOf(server, "Deciders");
    expect((await patch("iago", { direct_message_initiator_group: custom })).body).toEqual(error("'direct_message_initiator_group' must be a system user group."));
    const refused: [string, string, string][] = [
      ["can_create_public_channel_group", "role:owners", "'can_create_public_channel_group' setting cannot be set to 'role:owners' group."],
      ["can_create_private_channel_group", "role:everyone", "'can_create_private_channel_group' setting cannot be set to 'role:everyone' group."],
      ["direct_message_permission_group", "role:internet", "'direct_message_permission_group' setting cannot be set to 'role:internet' group."],
      ["can_access_all_users_group", "role:nobody", "'can_access_all_users_group' setting cannot be set to 'role:nobody' group."],
      ["can_access_all_users_group", "role:administrators", "'can_access_all_users_group' setting cannot be set to 'role:administrators' group."],
    ];
    for (const [setting, target, msg] of refused) expect((await patch("iago", { [setting]: group(target) })).body, setting).toEqual(error(msg));
    expect((await patch("desdemona", { create_multiuse_invite_group: group("role:everyone") })).body).toEqual(
      error("'create_multiuse_invite_group' setting cannot be set to 'role:everyone' group."),
    );
    expect((await patch("iago", { can_create_private_channel_group: group("role:administrators"), direct_message_initiator_group: group("role:nobody") })).body).toEqual(
      success({ can_create_private_channel_group: group("role:administrators"), direct_message_initiator_group: group("role:nobody") }),
    );
    const after = await state();
    expect([after.realm_can_create_private_channel_group, after.realm_create_private_stream_policy, after.realm_direct_message_initiator_group]).toEqual([
      group("role:administrators"),
      2,
      group("role:nobody"),
    ]);
    await patch("iago", { can_create_private_channel_group: group("role:members"), direct_message_initiator_group: group("role:everyone") });
  });

  it("guests keep seeing every user: can_access_all_users_group stays at everyone", async () => {
    expect((await patch("iago", { can_access_all_users_group: group("role:members") })).body).toEqual(
      error("Restricting guests' access to other users is not supported by this server."),
    );
    expect((await patch("iago", { can_access_all_users_group: group("role:everyone") })).body).toEqual(success());
  });
});
