import type { Migration } from "kysely";
import { m001Foundation } from "./001-foundation.js";
import { m002ChannelsMessages } from "./002-channels-messages.js";
import { m003UserState } from "./003-user-state.js";
import { m004GroupsInvites } from "./004-groups-invites.js";
import { m006Messages } from "./006-messages.js";

/** Numbered migrations, applied in name order at start. */
export const migrations: Record<string, Migration> = {
  "001-foundation": m001Foundation,
  "002-channels-messages": m002ChannelsMessages,
  "003-user-state": m003UserState,
  "004-groups-invites": m004GroupsInvites,
  "006-messages": m006Messages,
};
