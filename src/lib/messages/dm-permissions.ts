import type { Db } from "../../db/index.js";
import { conversationHasMessages } from "../../db/queries/messages.js";
import type { RealmRow } from "../../db/queries/realms.js";
import type { UserRow } from "../../db/queries/users.js";
import { badRequest } from "../../base/errors.js";
import { dmKey } from "./narrow.js";
import type { RealmGroups } from "../../caches/groups.js";
import { realmSettingGroup } from "../groups/realm-groups.js";
import { SystemGroups } from "../groups/system-groups.js";

/**
 * Zulip 9's check_can_send_direct_message. Bots may always send, and a conversation of the sender
 * with only bots (or alone) is always allowed. Otherwise someone in the conversation must be in
 * direct_message_permission_group, and a sender outside direct_message_initiator_group may only
 * write where the conversation already has messages. `participants` includes the sender.
 */
export async function checkCanSendDirectMessage(db: Db, groups: RealmGroups, realm: RealmRow, sender: UserRow, participants: readonly UserRow[]): Promise<void> {
  if (sender.is_bot) return;
  if (participants.every((u) => u.is_bot || u.id === sender.id)) return;
  const ids = participants.map((u) => u.id);
  const permission = realmSettingGroup(groups, realm, "direct_message_permission_group");
  if (permission.systemName !== SystemGroups.EVERYONE) {
    if (!ids.some((id) => groups.settingIncludes(permission.id, id))) {
      if (permission.systemName === SystemGroups.NOBODY) throw badRequest("Direct messages are disabled in this organization.");
      throw badRequest("This conversation does not include any users who can authorize it.");
    }
  }
  const initiator = realmSettingGroup(groups, realm, "direct_message_initiator_group");
  if (initiator.systemName === SystemGroups.EVERYONE) return;
  if (groups.settingIncludes(initiator.id, sender.id)) return;
  if (!(await conversationHasMessages(db, realm.id, dmKey(ids)))) {
    throw badRequest("You do not have permission to initiate direct message conversations.");
  }
}
