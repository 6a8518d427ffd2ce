import type { Db } from "../db/index.js";
import type { ApiUserGroup, GroupSettingValue, QueuedEvent } from "../events/types.js";
import { JsonText } from "../base/json-text.js";
import { invalidUserGroup } from "../base/errors.js";
import { groupsOfRealm, membershipsOfRealm, subgroupLinksOfRealm } from "../db/queries/user-groups.js";

/**
 * A realm's named groups as GET /user_groups shows them, frozen, with the membership walks the
 * read endpoints and the mention check need. Subgroups are always named groups.
 */
export class RealmGroups {
  private readonly byId: ReadonlyMap<number, ApiUserGroup>;
  private serialized: JsonText | undefined;

  constructor(readonly list: readonly ApiUserGroup[]) {
    this.byId = new Map(list.map((g) => [g.id, g]));
  }

  /** `list` serialised once, for GET /user_groups. */
  get listJson(): JsonText {
    this.serialized ??= new JsonText(JSON.stringify(this.list));
    return this.serialized;
  }

  /**
   * These groups after a committed add_members or remove_members event on group `id`: the same
   * as reloading them (direct members ascending), without reading every membership of the realm.
   */
  withMembers(id: number, op: "add_members" | "remove_members", userIds: readonly number[]): RealmGroups {
    const changed = new Set(userIds);
    return new RealmGroups(
      Object.freeze(this.list.map((group) => {
        if (group.id !== id) return group;
        const kept = group.members.filter((user) => !changed.has(user));
        const members = op === "add_members" ? [...kept, ...changed].sort((a, b) => a - b) : kept;
        return deepFreeze({ ...group, members });
      })),
    );
  }

  /** A named group of the realm by id. */
  get(id: number): ApiUserGroup | undefined {
    return this.byId.get(id);
  }

  /** The realm's system group of this name (role:members …). */
  system(name: string): ApiUserGroup {
    const group = this.list.find((g) => g.is_system_group && g.name === name);
    if (!group) throw new Error(`the realm has no system group ${name}`);
    return group;
  }

  /** A named group of the realm for reading: `Invalid user group` otherwise (Zulip's access_user_group_to_read_membership). */
  access(id: number): ApiUserGroup {
    const group = this.byId.get(id);
    if (!group) throw invalidUserGroup();
    return group;
  }

  /** Users in a group directly or through its subgroups, ascending. */
  recursiveMembers(id: number): number[] {
    return this.membersOf(this.closure([id]));
  }

  /** Every group below a group, never the group itself, ascending. */
  recursiveSubgroups(id: number): number[] {
    return this.closure(this.get(id)?.direct_subgroup_ids ?? []).filter((g) => g !== id).sort((a, b) => a - b);
  }

  /** Whether a user belongs to a group-setting value, directly or through subgroups. */
  settingIncludes(value: GroupSettingValue, userId: number): boolean {
    // Looked up group by group: collecting and sorting every member costs a realm-sized list per check.
    const inAny = (groupIds: readonly number[]) => groupIds.some((id) => this.hasDirectMember(id, userId));
    if (typeof value === "number") return inAny(this.closure([value]));
    return value.direct_members.includes(userId) || inAny(this.closure(value.direct_subgroups));
  }

  /** Whether a user is a direct member of a group: a binary search, members being kept ascending. */
  private hasDirectMember(groupId: number, userId: number): boolean {
    const members = this.get(groupId)?.members ?? [];
    let low = 0;
    let high = members.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const member = members[middle]!;
      if (member === userId) return true;
      if (member < userId) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  private closure(rootIds: readonly number[]): number[] {
    const found = new Set(rootIds);
    const pending = [...rootIds];
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      for (const sub of this.get(id)?.direct_subgroup_ids ?? []) {
        if (!found.has(sub)) {
          found.add(sub);
          pending.push(sub);
        }
      }
    }
    return [...found];
  }

  private membersOf(groupIds: readonly number[]): number[] {
    const members = new Set<number>();
    for (const id of groupIds) for (const user of this.get(id)?.members ?? []) members.add(user);
    return [...members].sort((a, b) => a - b);
  }
}

/**
 * Each realm's groups in memory, loaded from the database on first use and dropped when a
 * committed user_group event touches the realm. Every change to groups, members or subgroups
 * (role changes and new users included) announces such an event, so the bus keeps this exact the
 * way it keeps the user cache's max_message_id. A load that overlaps an event is returned to its
 * callers but not kept, since it may predate the change.
 */
export class GroupCache {
  private readonly realms = new Map<number, RealmGroups>();
  private readonly loading = new Map<number, Promise<RealmGroups>>();
  /** Counts user_group events; a load keeps its result only if none arrived meanwhile. */
  private generation = 0;

  constructor(private readonly db: Db) {}

  /** A realm's groups, as last committed (a miss reads through `ctx.db`, never a transaction). */
  async of(realmId: number): Promise<RealmGroups> {
    return this.realms.get(realmId) ?? this.loading.get(realmId) ?? this.load(realmId);
  }

  /** Drops what committed user_group events changed: the group's realm, or every realm for a new group. */
  observe(batch: readonly QueuedEvent[]): void {
    for (const { event } of batch) {
      if (event.type !== "user_group") continue;
      this.generation++;
      this.loading.clear();
      if (event.op === "add") {
        this.realms.clear();
        continue;
      }
      if (event.op === "add_members" || event.op === "remove_members") {
        // A new account joins role:members: applied in place, not a reload of every membership.
        for (const [realmId, groups] of this.realms) {
          if (groups.get(event.group_id)) this.realms.set(realmId, groups.withMembers(event.group_id, event.op, event.user_ids));
        }
        continue;
      }
      for (const [realmId, groups] of this.realms) {
        if (groups.get(event.group_id)) this.realms.delete(realmId);
      }
    }
  }

  /** Drops every realm (changes were missed). */
  forgetAll(): void {
    this.generation++;
    this.loading.clear();
    this.realms.clear();
  }

  private load(realmId: number): Promise<RealmGroups> {
    const started = this.generation;
    const promise = apiUserGroupsOfRealm(this.db, realmId).then((list) => {
      const groups = new RealmGroups(deepFreeze(list));
      if (this.loading.get(realmId) === promise) this.loading.delete(realmId);
      if (this.generation === started) this.realms.set(realmId, groups);
      return groups;
    });
    this.loading.set(realmId, promise);
    promise.catch(() => {
      if (this.loading.get(realmId) === promise) this.loading.delete(realmId);
    });
    return promise;
  }
}

/** Freezes the cached objects, so a reader that mutates them fails loudly instead of corrupting the cache. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Every named group of a realm as the API shows it, by id (Zulip's user_groups_in_realm_serialized). */
async function apiUserGroupsOfRealm(db: Db, realmId: number): Promise<ApiUserGroup[]> {
  const groups = await groupsOfRealm(db, realmId);
  const members = groupLists(await membershipsOfRealm(db, realmId));
  const subgroups = groupLists(await subgroupLinksOfRealm(db, realmId));
  const named = new Set(groups.filter((g) => g.name !== null).map((g) => g.id));
  const value = (id: number | null): GroupSettingValue => {
    if (id === null || named.has(id)) return id ?? 0;
    return { direct_members: members.get(id) ?? [], direct_subgroups: subgroups.get(id) ?? [] };
  };
  return groups
    .filter((g) => g.name !== null)
    .map((g) => ({
      id: g.id,
      name: g.name ?? "",
      description: g.description,
      members: members.get(g.id) ?? [],
      direct_subgroup_ids: subgroups.get(g.id) ?? [],
      is_system_group: g.is_system_group === 1,
      can_mention_group: value(g.can_mention_group_id),
    }));
}

function groupLists(pairs: readonly [number, number][]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const [group, item] of pairs) {
    const list = out.get(group) ?? [];
    list.push(item);
    out.set(group, list);
  }
  return out;
}
