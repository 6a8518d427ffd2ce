import type { Db } from "../db/index.js";
import { maxReceivedMessageId } from "../db/queries/messages.js";
import { profileValuesOfUsers, type ProfileValueRow } from "../db/queries/profile-fields.js";
import type { QueuedEvent } from "../events/types.js";
import { userByApiKey, userById, usersOfRealm, type UserRow } from "../db/queries/users.js";
import type { MaybePromise } from "../base/maybe-promise.js";

/**
 * Users by id and by API key, kept in memory for the hot path (every request authenticates).
 * Misses fall through to the database, so users created by another process are found;
 * actions that change a user call `forget` after their commit.
 */
export class UserCache {
  private readonly byId = new Map<number, UserRow>();
  private readonly byKey = new Map<string, UserRow>();
  private readonly profiles = new Map<number, ProfileValueRow[]>();
  private readonly maxMessageIds = new Map<number, number>();
  /** Each realm's users (system bots aside), as usersOfRealm lists them; dropped on any user change. */
  private readonly realmLists = new Map<number, readonly UserRow[]>();
  /** Counts the drops, so a list read while one happened is not kept. */
  private realmListsVersion = 0;

  constructor(private readonly db: Db) {}

  /** Changes whenever a user's row may have changed (what is made from rows may be kept until then). */
  get version(): number {
    return this.realmListsVersion;
  }

  /** The user with this API key, or undefined; at once when cached (every request asks). */
  byApiKey(apiKey: string): MaybePromise<UserRow | undefined> {
    return this.byKey.get(apiKey) ?? this.load(userByApiKey(this.db, apiKey));
  }

  /** The user with this id, or undefined; at once when cached (every /json call asks). */
  cached(id: number): MaybePromise<UserRow | undefined> {
    return this.byId.get(id) ?? this.load(userById(this.db, id));
  }

  /** The user with this id, or undefined. */
  async get(id: number): Promise<UserRow | undefined> {
    return this.byId.get(id) ?? this.load(userById(this.db, id));
  }

  /**
   * The realm's users, active or not, in id order (/register's realm_users, GET /users, mention
   * lookups). Read-only: callers filter into new arrays.
   */
  async ofRealm(realmId: number): Promise<readonly UserRow[]> {
    const cached = this.realmLists.get(realmId);
    if (cached) return cached;
    const version = this.realmListsVersion;
    const rows = await usersOfRealm(this.db, realmId);
    if (version === this.realmListsVersion) this.realmLists.set(realmId, rows);
    return rows;
  }

  /** A user's custom profile field values; at once when cached. */
  profileOf(user: UserRow): MaybePromise<ProfileValueRow[]> {
    const cached = this.profiles.get(user.id);
    if (cached) return cached;
    return profileValuesOfUsers(this.db, user.realm_id, [user.id]).then((rows) => {
      this.profiles.set(user.id, rows);
      return rows;
    });
  }

  /** The id of the newest message the user has a row for, or -1 (GET /users/me max_message_id); at once when cached. */
  maxMessageIdOf(userId: number): MaybePromise<number> {
    const cached = this.maxMessageIds.get(userId);
    if (cached !== undefined) return cached;
    return maxReceivedMessageId(this.db, userId).then((id) => {
      this.maxMessageIds.set(userId, id);
      return id;
    });
  }

  /**
   * Keeps max_message_id current from committed events: a new message raises it for its
   * recipients; a deletion or a channel move, or a reaction or flag change (which may add a historical row), makes
   * the affected users read it again.
   */
  observe(batch: readonly QueuedEvent[]): void {
    for (const { event, userIds } of batch) {
      if (event.type === "realm_user" || event.type === "realm_bot") this.dropRealmLists();
      if (event.type === "message") {
        for (const id of userIds) {
          const cached = this.maxMessageIds.get(id);
          if (cached !== undefined && event.message.id > cached) this.maxMessageIds.set(id, event.message.id);
        }
      } else if (event.type === "delete_message" || (event.type === "update_message" && event.new_stream_id !== undefined)) {
        // A channel move also takes rows from some users and gives read rows to others.
        this.maxMessageIds.clear();
      } else if (event.type === "update_message_flags") {
        for (const id of userIds) this.maxMessageIds.delete(id);
      } else if (event.type === "reaction") {
        this.maxMessageIds.delete(event.user_id);
      }
    }
  }

  /** Drops a user after a change, so the next read sees the database. */
  forget(id: number): void {
    this.dropRealmLists();
    this.profiles.delete(id);
    const row = this.byId.get(id);
    if (!row) return;
    this.byId.delete(id);
    this.byKey.delete(row.api_key);
  }

  /** Drops everything (changes were missed). */
  forgetAll(): void {
    this.dropRealmLists();
    this.byId.clear();
    this.byKey.clear();
    this.profiles.clear();
    this.maxMessageIds.clear();
  }

  private dropRealmLists(): void {
    this.realmLists.clear();
    this.realmListsVersion++;
  }

  private async load(read: Promise<UserRow | undefined>): Promise<UserRow | undefined> {
    const row = await read;
    if (row) {
      this.byId.set(row.id, row);
      this.byKey.set(row.api_key, row);
    }
    return row;
  }
}
