import { createHash } from "node:crypto";
import { OFFLINE_THRESHOLD_SECS, PRESENCE_PING_INTERVAL_SECS } from "../presence.js";
import { PASSWORD_MIN_GUESSES, PASSWORD_MIN_LENGTH } from "../passwords.js";
import { SERVER_GENERATION } from "../../events/restart.js";
import { realmGroupSettingsState } from "../realm-groups.js";
import { REALM_DEFAULTS, realmProps } from "../realm-props.js";
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
    const icon = `https://secure.gravatar.com/avatar/${createHash("md5").update(String(realm.id)).digest("hex")}?d=identicon&s=100`;
    Object.assign(state, {
      realm_name: realm.name,
      realm_description: realm.description,
      realm_date_created: Math.floor(realm.date_created / 1000),
      realm_uri: url,
      realm_url: url,
      realm_icon_url: icon,
      realm_logo_url: `${url}/static/images/logo/zulip-org-logo.svg?version=0`,
      realm_night_logo_url: `${url}/static/images/logo/zulip-org-logo.svg?version=0`,
      ...SERVER_LIMITS,
      max_avatar_file_size_mib: 5,
      max_file_upload_size_mib: ctx.config.maxFileUploadSizeMib,
      max_icon_file_size_mib: 5,
      max_logo_file_size_mib: 5,
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
      server_jitsi_server_url: "https://meet.jit.si",
      jitsi_server_url: "https://meet.jit.si",
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
  apply() {
    // No action changes organisation settings yet; the area that adds `realm` events applies them here.
  },
};

