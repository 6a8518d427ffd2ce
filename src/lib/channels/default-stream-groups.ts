import type { Db } from "../../db/index.js";
import { channelIdsOfGroups, defaultStreamGroupsOfRealm } from "../../db/queries/default-stream-groups.js";
import { activeStreamsByIds } from "../../db/queries/streams.js";
import type { DefaultStreamGroupsEvent } from "../../events/types.js";
import { badRequest } from "../../base/errors.js";
import { byName } from "./list.js";
import { apiStream } from "./streams.js";
import { pyStrip } from "../../algorithms/python-text.js";

/** A default channel group as /register and default_stream_groups events show it at feature level 277. */
export type ApiDefaultStreamGroup = DefaultStreamGroupsEvent["default_stream_groups"][number];

/** Zulip's DefaultStreamGroup.MAX_NAME_LENGTH. */
export const MAX_GROUP_NAME_LENGTH = 60;

/** The realm's default channel groups sorted by name, each with its active channels sorted by name. */
export async function defaultStreamGroupDicts(db: Db, realmId: number): Promise<ApiDefaultStreamGroup[]> {
  const groups = await defaultStreamGroupsOfRealm(db, realmId);
  const channelIds = await channelIdsOfGroups(db, groups.map((g) => g.id));
  const streams = new Map((await activeStreamsByIds(db, [...new Set([...channelIds.values()].flat())])).map((s) => [s.id, s]));
  return groups
    .map((group) => ({
      name: group.name,
      id: group.id,
      description: group.description,
      streams: (channelIds.get(group.id) ?? []).flatMap((id) => {
        const stream = streams.get(id);
        return stream ? [apiStream(stream)] : [];
      }).sort(byName),
    }))
    .sort(byName);
}

/** Zulip's check_default_stream_group_name. */
export function checkGroupName(name: string): void {
  if (pyStrip(name) === "") throw badRequest(`Invalid default channel group name '${name}'`);
  if ([...name].length > MAX_GROUP_NAME_LENGTH) {
    throw badRequest(`Default channel group name too long (limit: ${MAX_GROUP_NAME_LENGTH} characters)`);
  }
  if (name.includes("\0")) throw badRequest(`Default channel group name '${name}' contains NULL (0x00) characters.`);
}
