import type { Endpoint } from "../http/endpoint.js";
import { authEndpoints } from "./auth.js";
import { eventEndpoints } from "./events.js";
import { userEndpoints } from "./users.js";
import { botEndpoints } from "./bots.js";
import { userGroupEndpoints } from "./user-groups.js";
import { inviteEndpoints } from "./invites.js";
import { streamEndpoints } from "./streams.js";
import { subscriptionEndpoints } from "./subscriptions.js";
import { userTopicEndpoints } from "./user-topics.js";
import { settingsEndpoints } from "./settings.js";
import { presenceEndpoints } from "./presence.js";
import { draftEndpoints } from "./drafts.js";
import { mutedUserEndpoints } from "./muted-users.js";
import { alertWordEndpoints } from "./alert-words.js";
import { pushTokenEndpoints } from "./push-tokens.js";
import { messageEndpoints } from "./messages.js";
import { messageFlagEndpoints } from "./message-flags.js";
import { messageDetailEndpoints } from "./message-details.js";
import { profileFieldEndpoints } from "./profile-fields.js";
import { realmEmojiEndpoints } from "./realm-emoji.js";
import { apiDescriptionEndpoint } from "./api-description.js";
import { realmEndpoints } from "./realm.js";
import { scheduledMessageEndpoints } from "./scheduled-messages.js";
import { realmLinkifierEndpoints } from "./realm-linkifiers.js";
import { realmPlaygroundEndpoints } from "./realm-playgrounds.js";
import { defaultStreamGroupEndpoints } from "./default-stream-groups.js";
import { uploadEndpoints } from "./uploads.js";
import { avatarEndpoints } from "./avatars.js";
import { realmBrandingEndpoints } from "./realm-branding.js";
import { exportEndpoints } from "./exports.js";

/** Every REST endpoint the server answers. */
export const allEndpoints: readonly Endpoint[] = [
  ...authEndpoints,
  ...eventEndpoints,
  ...userEndpoints,
  ...botEndpoints,
  ...userGroupEndpoints,
  ...inviteEndpoints,
  ...streamEndpoints,
  ...subscriptionEndpoints,
  ...userTopicEndpoints,
  ...settingsEndpoints,
  ...presenceEndpoints,
  ...draftEndpoints,
  ...mutedUserEndpoints,
  ...alertWordEndpoints,
  ...pushTokenEndpoints,
  ...messageFlagEndpoints,
  ...messageEndpoints,
  ...profileFieldEndpoints,
  ...realmEmojiEndpoints,
  ...realmEndpoints,
  ...messageDetailEndpoints,
  ...scheduledMessageEndpoints,
  ...realmLinkifierEndpoints,
  ...realmPlaygroundEndpoints,
  ...defaultStreamGroupEndpoints,
  ...uploadEndpoints,
  ...avatarEndpoints,
  ...realmBrandingEndpoints,
  ...exportEndpoints,
  apiDescriptionEndpoint(() => allEndpoints),
];
