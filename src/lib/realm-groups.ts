import type { Db } from "../db/index.js";
import type { RealmRow } from "../db/queries/realms.js";
import { groupsOfRealm, namedGroupById } from "../db/queries/user-groups.js";
import { REALM_GROUP_DEFAULTS, realmGroupProp, type RealmGroupSetting } from "./realm-props.js";
import { isUserInGroup, SystemGroups, systemGroupId } from "./user-groups.js";

/** The group a realm setting names: its id, and its name when it is a system group. */
export interface SettingGroup {
  id: number;
  systemName: string | null;
}

/** The group a realm setting names: the one the realm stores, else the realm's default system group. */
export async function realmSettingGroup(db: Db, realm: RealmRow, name: RealmGroupSetting): Promise<SettingGroup> {
  const stored = realmGroupProp(realm, name);
  if (stored === undefined) {
    const systemName = REALM_GROUP_DEFAULTS[name];
    return { id: await systemGroupId(db, realm.id, systemName), systemName };
  }
  const group = await namedGroupById(db, realm.id, stored);
  return { id: stored, systemName: group?.is_system_group ? group.name : null };
}

/** Whether a user belongs, directly or through subgroups, to the group a realm setting names. */
export async function isInRealmGroupSetting(db: Db, realm: RealmRow, name: RealmGroupSetting, userId: number): Promise<boolean> {
  const group = await realmSettingGroup(db, realm, name);
  // Every user of the realm is in role:everyone; skip reading its whole membership.
  if (group.systemName === SystemGroups.EVERYONE) return true;
  return isUserInGroup(db, group.id, userId);
}

/**
 * The realm's group settings as /register sends them at feature level 275: `realm_<name>` is a
 * group id, plus the deprecated realm_create_public_stream_policy and
 * realm_create_private_stream_policy that Zulip still derives from the channel-creation groups.
 */
export async function realmGroupSettingsState(db: Db, realm: RealmRow): Promise<Record<string, number>> {
  const systemGroups = (await groupsOfRealm(db, realm.id)).filter((g) => g.is_system_group === 1 && g.name !== null);
  const idByName = new Map(systemGroups.map((g) => [g.name, g.id]));
  const nameById = new Map(systemGroups.map((g) => [g.id, g.name ?? ""]));
  const state: Record<string, number> = {};
  for (const [name, fallback] of Object.entries(REALM_GROUP_DEFAULTS)) {
    const id = realmGroupProp(realm, name) ?? idByName.get(fallback);
    if (id === undefined) throw new Error(`realm ${realm.id} has no system group ${fallback}`);
    state[`realm_${name}`] = id;
  }
  const legacyPolicy = (setting: RealmGroupSetting): number => LEGACY_POLICY[nameById.get(state[`realm_${setting}`] ?? 0) ?? ""] ?? MEMBERS_POLICY;
  state.realm_create_public_stream_policy = legacyPolicy("can_create_public_channel_group");
  state.realm_create_private_stream_policy = legacyPolicy("can_create_private_channel_group");
  return state;
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
