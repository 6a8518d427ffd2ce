import { OFFLINE_THRESHOLD_SECS, PRESENCE_PING_INTERVAL_SECS } from "../../caches/presence.js";
import { PASSWORD_MIN_GUESSES, PASSWORD_MIN_LENGTH } from "../users/passwords.js";
import { activeStreamsByIds } from "../../db/queries/streams.js";
import type { ApiUserGroup, RealmEvent } from "../../events/types.js";
import { SERVER_GENERATION } from "../../events/restart.js";
import { DEFAULT_EXTERNAL_ACCOUNTS } from "../users/profile-fields.js";
import { legacyCreationPolicy, realmGroupSettingsState } from "../groups/realm-groups.js";
import { REALM_DEFAULTS, realmProps } from "../realm/props.js";
import { MAX_ICON_FILE_SIZE_MIB, MAX_LOGO_FILE_SIZE_MIB, realmIconUrl, realmLogoUrl } from "../realm/branding.js";
import { serverSupportedPermissionSettings } from "../realm/permissions.js";
import { SERVER_JITSI_URL } from "../realm/settings.js";
import type { StateSection } from "./types.js";
import { THUMBNAIL_FORMATS, formatName } from "../../uploads/images.js";

/** Zulip's server constants that /register reports with the realm section. */
export const SERVER_LIMITS = {
  max_message_length: 10000,
  max_topic_length: 60,
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  /** Clients use it as their HTTP timeout for GET /events; greater than the heartbeat interval. */
  event_queue_longpoll_timeout_seconds: 90,
} as const;

/** The `realm` section: every realm_* setting, the server's limits and its capabilities. */
export const realmSection: StateSection = {
  types: ["realm"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("realm")) return;
    const realm = await ctx.realms.get(user.realm_id);
    if (!realm) return;
    const url = ctx.config.externalUrl;
    const props = realmProps(realm);
    for (const [key, fallback] of Object.entries(REALM_DEFAULTS)) state[`realm_${key}`] = key in props ? props[key] : fallback;
    Object.assign(state, realmGroupSettingsState(await ctx.groups.of(realm.id), realm));
    // A deactivated channel announces nothing: Zulip reports it as none (-1).
    const channels = ANNOUNCEMENT_CHANNELS.map((key) => state[`realm_${key}`]).filter((id): id is number => typeof id === "number" && id >= 0);
    const active = new Set((await activeStreamsByIds(ctx.db, channels)).filter((s) => s.realm_id === realm.id).map((s) => s.id));
    for (const key of ANNOUNCEMENT_CHANNELS) if (!active.has(Number(state[`realm_${key}`]))) state[`realm_${key}`] = -1;
    Object.assign(state, {
      realm_name: realm.name,
      realm_description: realm.description,
      realm_date_created: Math.floor(realm.date_created / 1000),
      realm_uri: url,
      realm_url: url,
      realm_icon_url: realmIconUrl(realm),
      realm_logo_url: realmLogoUrl(realm, "logo"),
      realm_night_logo_url: realmLogoUrl(realm, "night_logo"),
      realm_bot_domain: new URL(url).hostname,
      realm_default_external_accounts: structuredClone(DEFAULT_EXTERNAL_ACCOUNTS),
      server_supported_permission_settings: serverSupportedPermissionSettings(),
      ...SERVER_LIMITS,
      max_avatar_file_size_mib: 5,
      max_file_upload_size_mib: ctx.config.maxFileUploadSizeMib,
      max_icon_file_size_mib: MAX_ICON_FILE_SIZE_MIB,
      max_logo_file_size_mib: MAX_LOGO_FILE_SIZE_MIB,
      development_environment: false,
      server_generation: SERVER_GENERATION,
      password_min_length: PASSWORD_MIN_LENGTH,
      password_min_guesses: PASSWORD_MIN_GUESSES,
      giphy_rating_options: {
        disabled: { id: 0, name: "GIPHY integration disabled" },
        y: { id: 1, name: "Allow GIFs rated Y (Very young audience)" },
        g: { id: 2, name: "Allow GIFs rated G (General audience)" },
        pg: { id: 3, name: "Allow GIFs rated PG (Parental guidance)" },
        "pg-13": { id: 4, name: "Allow GIFs rated PG-13 (Parental guidance - under 13)" },
        r: { id: 5, name: "Allow GIFs rated R (Restricted)" },
      },
      server_avatar_changes_disabled: false,
      server_name_changes_disabled: false,
      server_needs_upgrade: false,
      server_inline_image_preview: true,
      server_inline_url_embed_preview: false,
      server_thumbnail_formats: THUMBNAIL_FORMATS.map((f) => ({ name: formatName(f), max_width: f.maxWidth, max_height: f.maxHeight, format: f.extension, animated: f.animated })),
      server_web_public_streams_enabled: false,
      server_emoji_data_url: `${url}/static/generated/emoji/emoji_api.json`,
      server_jitsi_server_url: SERVER_JITSI_URL,
      jitsi_server_url: typeof props.jitsi_server_url === "string" ? props.jitsi_server_url : SERVER_JITSI_URL,
      server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECS,
      server_presence_offline_threshold_seconds: OFFLINE_THRESHOLD_SECS,
      server_typing_started_expiry_period_milliseconds: 45000,
      server_typing_stopped_wait_period_milliseconds: 5000,
      server_typing_started_wait_period_milliseconds: 10000,
      settings_send_digest_emails: false,
      upgrade_text_for_wide_organization_logo: "",
      zulip_plan_is_not_limited: true,
    });
  },
  apply(state, event) {
    if (event.type === "realm" && "realm_name" in state) applyRealmEvent(state, event);
  },
};

const ANNOUNCEMENT_CHANNELS = ["new_stream_announcements_stream_id", "signup_announcements_stream_id", "zulip_update_announcements_stream_id"];

/**
 * Zulip's apply_event for realm: each changed property lands in realm_<name>; the deprecated
 * values derived from it follow.
 */
function applyRealmEvent(state: Record<string, unknown>, event: RealmEvent): void {
  const changes = event.op === "update" ? { [event.property]: event.value } : event.data;
  for (const [name, value] of Object.entries(changes)) {
    state[`realm_${name}`] = structuredClone(value);
    if (name === "jitsi_server_url") state.jitsi_server_url = value ?? SERVER_JITSI_URL;
    if (ANNOUNCEMENT_CHANNELS.includes(name) && typeof value === "number" && value < 0) state[`realm_${name}`] = -1;
    const legacy = LEGACY_CREATION_POLICIES[name];
    if (legacy !== undefined && Array.isArray(state.realm_user_groups)) {
      // The group's role is known from realm_user_groups when the client fetched it.
      const group = (state.realm_user_groups as ApiUserGroup[]).find((g) => g.id === value);
      state[legacy] = legacyCreationPolicy(group?.is_system_group ? group.name : null);
    }
  }
}

const LEGACY_CREATION_POLICIES: Readonly<Record<string, string>> = {
  can_create_public_channel_group: "realm_create_public_stream_policy",
  can_create_private_channel_group: "realm_create_private_stream_policy",
};

