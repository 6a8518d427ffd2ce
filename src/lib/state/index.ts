import type { StateSection } from "./types.js";
import { realmUserSection } from "./realm-user.js";
import { realmSection } from "./realm.js";
import { userGroupSection } from "./user-groups.js";
import { defaultStreamsSection, streamSection } from "./streams.js";
import { userTopicSection } from "./user-topics.js";
import { settingsSection } from "./settings.js";
import { ownListsSection, presenceSection, userStatusSection } from "./user-state.js";
import { messagesSection } from "./messages.js";
import { profileFieldSection } from "./profile-fields.js";
import { realmEmojiSection } from "./realm-emoji.js";
import { ownUserSection } from "./own-user.js";
import { botsSection } from "./bots.js";
import { starredSection } from "./starred.js";
import { absentFeaturesSection } from "./absent-features.js";
import { realmDomainsSection } from "./realm-domains.js";
import { scheduledMessagesSection } from "./scheduled-messages.js";
import { realmLinkifiersSection } from "./realm-linkifiers.js";
import { realmPlaygroundsSection } from "./realm-playgrounds.js";
import { defaultStreamGroupsSection } from "./default-stream-groups.js";

export type { StateOptions, StateSection } from "./types.js";

/** Every section of /register state; each area of the API adds its own here. */
export const stateSections: readonly StateSection[] = [
  realmSection,
  realmUserSection,
  userGroupSection,
  streamSection,
  defaultStreamsSection,
  userTopicSection,
  settingsSection,
  presenceSection,
  userStatusSection,
  ownListsSection,
  messagesSection,
  profileFieldSection,
  realmEmojiSection,
  ownUserSection,
  botsSection,
  starredSection,
  absentFeaturesSection,
  realmDomainsSection,
  scheduledMessagesSection,
  realmLinkifiersSection,
  realmPlaygroundsSection,
  defaultStreamGroupsSection,
];
