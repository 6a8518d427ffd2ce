import type { Migration } from "kysely";
import { m001Foundation } from "./001-foundation.js";
import { m002ChannelsMessages } from "./002-channels-messages.js";
import { m003UserState } from "./003-user-state.js";
import { m004GroupsInvites } from "./004-groups-invites.js";
import { m005Messages } from "./005-messages.js";
import { m006SystemBots } from "./006-system-bots.js";
import { m010SignupConfirmations } from "./010-signup-confirmations.js";

/** Numbered migrations, applied in name order at start. */
export const migrations: Record<string, Migration> = {
  "001-foundation": m001Foundation,
  "002-channels-messages": m002ChannelsMessages,
  "003-user-state": m003UserState,
  "004-groups-invites": m004GroupsInvites,
  "005-messages": m005Messages,
  "006-system-bots": m006SystemBots,
  // 007–009 belong to other branches; the gap closes when they are joined.
  "010-signup-confirmations": m010SignupConfirmations,
};
