import type { Migration } from "kysely";
import { m001Foundation } from "./001-foundation.js";
import { m002ChannelsMessages } from "./002-channels-messages.js";
import { m003UserState } from "./003-user-state.js";
import { m004GroupsInvites } from "./004-groups-invites.js";
import { m005Messages } from "./005-messages.js";
import { m006SystemBots } from "./006-system-bots.js";
import { m007MessageSearch } from "./007-message-search.js";
import { m008RealmEmoji } from "./008-realm-emoji.js";
import { m009SignupConfirmations } from "./009-signup-confirmations.js";
import { m013StreamEmailToken } from "./013-stream-email-token.js";
import { m014RealmDomains } from "./014-realm-domains.js";
import { m012Submessages } from "./012-submessages.js";
import { m011ScheduledMessages } from "./011-scheduled-messages.js";
import { m010RealmConfig } from "./010-realm-config.js";
import { m017WelcomeBot } from "./017-welcome-bot.js";
import { m016Attachments } from "./016-attachments.js";
import { m018Sessions } from "./018-sessions.js";
import { m021PasswordResets } from "./021-password-resets.js";
import { m022OutgoingMail } from "./022-outgoing-mail.js";
import { m023MessageImageUrls } from "./023-message-image-urls.js";
import { m026Exports } from "./026-exports.js";
import { m027UserRealmRole } from "./027-user-realm-role.js";
import { m028EventLog } from "./028-event-log.js";
import { m029ClusterPending } from "./029-cluster-pending.js";
import { m030MessageStreamId } from "./030-message-stream-id.js";

/** Numbered migrations, applied in name order at start. */
export const migrations: Record<string, Migration> = {
  "001-foundation": m001Foundation,
  "002-channels-messages": m002ChannelsMessages,
  "003-user-state": m003UserState,
  "004-groups-invites": m004GroupsInvites,
  "005-messages": m005Messages,
  "006-system-bots": m006SystemBots,
  "007-message-search": m007MessageSearch,
  "008-realm-emoji": m008RealmEmoji,
  "009-signup-confirmations": m009SignupConfirmations,
  "013-stream-email-token": m013StreamEmailToken,
  "014-realm-domains": m014RealmDomains,
  "012-submessages": m012Submessages,
  "011-scheduled-messages": m011ScheduledMessages,
  "010-realm-config": m010RealmConfig,
  "017-welcome-bot": m017WelcomeBot,
  "016-attachments": m016Attachments,
  "018-sessions": m018Sessions,
  "021-password-resets": m021PasswordResets,
  "022-outgoing-mail": m022OutgoingMail,
  "023-message-image-urls": m023MessageImageUrls,
  "026-exports": m026Exports,
  "027-user-realm-role": m027UserRealmRole,
  "028-event-log": m028EventLog,
  "029-cluster-pending": m029ClusterPending,
  "030-message-stream-id": m030MessageStreamId,
};
