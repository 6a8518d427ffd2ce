import { badRequest, invalidUserGroup } from "../../base/errors.js";
import type { RealmGroups } from "../../caches/groups.js";
import { REALM_GROUP_DEFAULTS, type RealmGroupSetting } from "./props.js";
import { SystemGroups } from "../groups/system-groups.js";

/**
 * Which groups a group-valued setting may name and which it starts as (Zulip 9's
 * GroupPermissionSetting, as server_supported_permission_settings sends it at feature level 277).
 */
export interface GroupPermissionSetting {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_owners_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  default_group_name: string;
  id_field_name: string;
  default_for_system_groups: string | null;
  allowed_system_groups: string[];
}

function setting(
  name: string,
  defaultGroup: string,
  flags: { system: boolean; internet?: boolean; owners: boolean; nobody: boolean; everyone: boolean },
  extra: { defaultForSystemGroups?: string; allowed?: string[] } = {},
): GroupPermissionSetting {
  return {
    require_system_group: flags.system,
    allow_internet_group: flags.internet ?? false,
    allow_owners_group: flags.owners,
    allow_nobody_group: flags.nobody,
    allow_everyone_group: flags.everyone,
    default_group_name: defaultGroup,
    id_field_name: `${name}_id`,
    default_for_system_groups: extra.defaultForSystemGroups ?? null,
    allowed_system_groups: extra.allowed ?? [],
  };
}

const defaults = REALM_GROUP_DEFAULTS;

/** The realm's group settings in Zulip's REALM_PERMISSION_GROUP_SETTINGS order. */
export const REALM_PERMISSION_SETTINGS: Readonly<Record<RealmGroupSetting, GroupPermissionSetting>> = {
  create_multiuse_invite_group: setting("create_multiuse_invite_group", defaults.create_multiuse_invite_group, {
    system: true,
    owners: false,
    nobody: true,
    everyone: false,
  }),
  can_access_all_users_group: setting(
    "can_access_all_users_group",
    defaults.can_access_all_users_group,
    { system: true, owners: false, nobody: false, everyone: true },
    { allowed: [SystemGroups.EVERYONE, SystemGroups.MEMBERS] },
  ),
  can_create_public_channel_group: setting("can_create_public_channel_group", defaults.can_create_public_channel_group, {
    system: false,
    owners: false,
    nobody: false,
    everyone: false,
  }),
  can_create_private_channel_group: setting("can_create_private_channel_group", defaults.can_create_private_channel_group, {
    system: false,
    owners: false,
    nobody: false,
    everyone: false,
  }),
  direct_message_initiator_group: setting("direct_message_initiator_group", defaults.direct_message_initiator_group, {
    system: false,
    owners: true,
    nobody: true,
    everyone: true,
  }),
  direct_message_permission_group: setting("direct_message_permission_group", defaults.direct_message_permission_group, {
    system: false,
    owners: true,
    nobody: true,
    everyone: true,
  }),
};

/** server_supported_permission_settings: the realm's, channels' and user groups' group settings. */
export function serverSupportedPermissionSettings(): Record<string, Record<string, GroupPermissionSetting>> {
  return {
    realm: { ...REALM_PERMISSION_SETTINGS },
    stream: {
      can_remove_subscribers_group: setting("can_remove_subscribers_group", SystemGroups.ADMINISTRATORS, {
        system: true,
        owners: false,
        nobody: false,
        everyone: true,
      }),
    },
    group: {
      can_mention_group: setting(
        "can_mention_group",
        SystemGroups.EVERYONE,
        { system: false, owners: false, nobody: true, everyone: true },
        { defaultForSystemGroups: SystemGroups.NOBODY },
      ),
    },
  };
}

/**
 * The group a realm setting may be set to (Zulip 9's access_user_group_for_setting): a group of
 * the realm, a system one (production servers before feature level 309 accept no other), and
 * one the setting's configuration allows.
 */
export function checkGroupForRealmSetting(groups: RealmGroups, name: RealmGroupSetting, groupId: number): number {
  const config = REALM_PERMISSION_SETTINGS[name];
  const group = groups.get(groupId);
  if (!group) throw invalidUserGroup();
  if (!group.is_system_group) throw badRequest(`'${name}' must be a system user group.`);
  const refused: [boolean, string][] = [
    [config.allow_internet_group, SystemGroups.EVERYONE_ON_INTERNET],
    [config.allow_owners_group, SystemGroups.OWNERS],
    [config.allow_nobody_group, SystemGroups.NOBODY],
    [config.allow_everyone_group, SystemGroups.EVERYONE],
  ];
  for (const [allowed, groupName] of refused) {
    if (!allowed && group.name === groupName) throw badRequest(`'${name}' setting cannot be set to '${groupName}' group.`);
  }
  if (config.allowed_system_groups.length > 0 && !config.allowed_system_groups.includes(group.name)) {
    throw badRequest(`'${name}' setting cannot be set to '${group.name}' group.`);
  }
  return group.id;
}
