import type { RealmRow } from "../../db/queries/realms.js";
import type { RealmGroups } from "../../caches/groups.js";
import { REALM_GROUP_DEFAULTS, realmGroupProp, type RealmGroupSetting } from "../realm/props.js";
import { SystemGroups } from "./system-groups.js";

/** The group a realm setting names: its id, and its name when it is a system group. */
export interface SettingGroup {
  id: number;
  systemName: string | null;
}

/** The group a realm setting names: the one the realm stores, else the realm's default system group. */
export function realmSettingGroup(groups: RealmGroups, realm: RealmRow, name: RealmGroupSetting): SettingGroup {
  const stored = realmGroupProp(realm, name);
  const group = stored === undefined ? groups.system(REALM_GROUP_DEFAULTS[name]) : groups.get(stored);
  return { id: group?.id ?? stored ?? 0, systemName: group?.is_system_group ? group.name : null };
}

/** Whether a user belongs, directly or through subgroups, to the group a realm setting names. */
export function isInRealmGroupSetting(groups: RealmGroups, realm: RealmRow, name: RealmGroupSetting, userId: number): boolean {
  return groups.settingIncludes(realmSettingGroup(groups, realm, name).id, userId);
}

/**
 * The realm's group settings as /register sends them at feature level 275: `realm_<name>` is a
 * group id, plus the deprecated realm_create_public_stream_policy and
 * realm_create_private_stream_policy that Zulip still derives from the channel-creation groups.
 */
export function realmGroupSettingsState(groups: RealmGroups, realm: RealmRow): Record<string, number> {
  const state: Record<string, number> = {};
  for (const name of Object.keys(REALM_GROUP_DEFAULTS) as RealmGroupSetting[]) state[`realm_${name}`] = realmSettingGroup(groups, realm, name).id;
  const legacyPolicy = (setting: RealmGroupSetting): number => legacyCreationPolicy(realmSettingGroup(groups, realm, setting).systemName);
  state.realm_create_public_stream_policy = legacyPolicy("can_create_public_channel_group");
  state.realm_create_private_stream_policy = legacyPolicy("can_create_private_channel_group");
  return state;
}

/** The deprecated create_*_stream_policy value a channel-creation group stands for. */
export function legacyCreationPolicy(systemName: string | null): number {
  return LEGACY_POLICY[systemName ?? ""] ?? MEMBERS_POLICY;
}

/**
 * The role-policy value (1 members, 2 administrators, 3 full members, 4 moderators) a system
 * group stands for in the deprecated create_*_stream_policy fields; any other group reads as the
 * largest, members (Zulip's get_corresponding_policy_value_for_group_setting).
 */
const MEMBERS_POLICY = 1;
const LEGACY_POLICY: Readonly<Record<string, number>> = {
  [SystemGroups.MEMBERS]: MEMBERS_POLICY,
  [SystemGroups.ADMINISTRATORS]: 2,
  [SystemGroups.FULL_MEMBERS]: 3,
  [SystemGroups.MODERATORS]: 4,
};
