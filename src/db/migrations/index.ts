import type { Migration } from "kysely";
import { m001Foundation } from "./001-foundation.js";
import { m002ChannelsMessages } from "./002-channels-messages.js";

/** Numbered migrations, applied in name order at start. */
export const migrations: Record<string, Migration> = {
  "001-foundation": m001Foundation,
  "002-channels-messages": m002ChannelsMessages,
};
