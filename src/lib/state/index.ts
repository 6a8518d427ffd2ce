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
import { realmLinkifiersSection } from "./realm-linkifiers.js";
import { realmPlaygroundsSection } from "./realm-playgrounds.js";
import { defaultStreamGroupsSection } from "./default-stream-groups.js";

export type { StateOptions, StateSection } from "./types.js";

/** Every section of /register state; each area of the API adds its own here. */
export const stateSections: readonly StateSection[] = [realmSection, realmUserSection, userGroupSection, streamSection, defaultStreamsSection, userTopicSection, settingsSection, presenceSection, userStatusSection, ownListsSection, messagesSection, profileFieldSection, realmEmojiSection, realmLinkifiersSection, realmPlaygroundsSection, defaultStreamGroupsSection];
