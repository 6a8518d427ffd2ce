import type { StateSection } from "./types.js";

/**
 * Keys for features Rookery does not have, each with the value Zulip sends when the feature is
 * off or empty: no onboarding steps to show (nothing records them), no Zoom account, no GIPHY
 * key, no full-text stop words (search does not drop any), no embedded bots and no incoming
 * webhook integrations. No event changes them.
 */
export const absentFeaturesSection: StateSection = {
  types: ["onboarding_steps", "video_calls", "giphy", "stop_words", "realm_embedded_bots", "realm_incoming_webhook_bots"],
  async fetch(_ctx, _user, want, _opts, state) {
    if (want("onboarding_steps")) state.onboarding_steps = [];
    if (want("video_calls")) state.has_zoom_token = false;
    if (want("giphy")) state.giphy_api_key = "";
    if (want("stop_words")) state.stop_words = [];
    if (want("realm_embedded_bots")) state.realm_embedded_bots = [];
    if (want("realm_incoming_webhook_bots")) state.realm_incoming_webhook_bots = [];
  },
  apply() {
    // Nothing in Rookery changes these.
  },
};
