import { EMOJISET_CHOICES, NOTIFICATION_SOUNDS, SETTINGS, realmDefaults, userSettings } from "../users/settings.js";
import type { StateSection } from "./types.js";

const emojisetChoices = () => EMOJISET_CHOICES.map((c) => ({ key: c.key, text: c.text }));

/**
 * user_settings (and, for clients without user_settings_object, the legacy top-level copies of
 * the display and notification settings) and realm_user_settings_defaults.
 */
export const settingsSection: StateSection = {
  types: ["user_settings", "update_display_settings", "update_global_notifications", "realm_user_settings_defaults"],
  async fetch(ctx, user, want, opts, state) {
    const fresh = (await ctx.users.get(user.id)) ?? user;
    const mine = userSettings(fresh);
    const modern = opts.capabilities.user_settings_object === true;
    if (want("update_display_settings") && !modern) {
      for (const s of SETTINGS) if (s.legacy === "display") state[s.name] = mine[s.name];
      state.emojiset_choices = emojisetChoices();
    }
    if (want("update_global_notifications") && !modern) {
      for (const s of SETTINGS) if (s.legacy === "notification") state[s.name] = mine[s.name];
      state.available_notification_sounds = [...NOTIFICATION_SOUNDS];
    }
    if (want("user_settings")) {
      const own: Record<string, unknown> = {};
      for (const s of SETTINGS) own[s.name] = mine[s.name];
      own.emojiset_choices = emojisetChoices();
      own.available_notification_sounds = [...NOTIFICATION_SOUNDS];
      state.user_settings = own;
    }
    if (want("realm_user_settings_defaults")) {
      const defaults = await realmDefaults(ctx.db, user.realm_id);
      const out: Record<string, unknown> = {};
      for (const s of SETTINGS) if (s.inDefaultsState) out[s.name] = defaults[s.name];
      out.emojiset_choices = emojisetChoices();
      out.available_notification_sounds = [...NOTIFICATION_SOUNDS];
      state.realm_user_settings_defaults = out;
    }
  },
  apply(state, event) {
    const property = event.type === "user_settings" ? event.property : event.type === "update_display_settings" ? event.setting_name : undefined;
    const value = event.type === "user_settings" ? event.value : event.type === "update_display_settings" ? event.setting : undefined;
    // Turning synchronisation off deletes the server's drafts without drafts events.
    if (property === "enable_drafts_synchronization" && value === false && Array.isArray(state.drafts)) state.drafts = [];
    if (event.type === "user_settings") {
      if (isRecord(state.user_settings)) state.user_settings[event.property] = event.value;
      return;
    }
    if (event.type === "update_display_settings") {
      if (event.setting_name in state) state[event.setting_name] = event.setting;
      return;
    }
    if (event.type === "update_global_notifications") {
      if (event.notification_name in state) state[event.notification_name] = event.setting;
      return;
    }
    if (event.type === "realm_user_settings_defaults" && isRecord(state.realm_user_settings_defaults)) {
      state.realm_user_settings_defaults[event.property] = event.value;
    }
  },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
