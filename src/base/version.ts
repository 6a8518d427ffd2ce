/** The Zulip API feature level this server implements. */
export const FEATURE_LEVEL = 277;
/** The Zulip version string clients are shown. */
export const VERSION = "9.0";
