import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { anyStreamByName, streamById, type StreamRow } from "../db/queries/streams.js";
import { deleteUserTopic, upsertUserTopic, userTopicOf } from "../db/queries/subscriptions.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest } from "../base/errors.js";
import { accessStreamById, accessStreamByName } from "../lib/channels/streams.js";
import { mutedTopicsOf, VisibilityPolicy } from "../lib/channels/user-topics.js";

/** Which channel a request names: by id, or (legacy muted_topics endpoint) by name. */
export type StreamRef = { id: number } | { name: string };

/**
 * POST /user_topics. Setting a policy needs access to the channel; removing one (0) only needs
 * the channel to exist in the realm, so a user who lost access can still clear a policy.
 */
export async function checkSetUserTopic(ctx: AppContext, user: UserRow, ref: StreamRef, topic: string, policy: number, error = "Invalid channel ID"): Promise<void> {
  const stream = policy === VisibilityPolicy.INHERIT ? await streamForRemoval(ctx.db, user, ref, error) : await streamForSetting(ctx.db, user, ref);
  await doSetUserTopic(ctx, user, stream, topic, policy);
}

async function streamForSetting(db: Db, user: UserRow, ref: StreamRef): Promise<StreamRow> {
  return "id" in ref ? (await accessStreamById(db, user, ref.id)).stream : (await accessStreamByName(db, user, ref.name)).stream;
}

async function streamForRemoval(db: Db, user: UserRow, ref: StreamRef, error: string): Promise<StreamRow> {
  if ("id" in ref) {
    const stream = await streamById(db, ref.id);
    if (!stream || stream.realm_id !== user.realm_id) throw badRequest(error);
    return stream;
  }
  const stream = await anyStreamByName(db, user.realm_id, ref.name);
  if (!stream) throw badRequest(error);
  return stream;
}

/**
 * Stores a policy (0 deletes the row). Nothing is sent when the stored value does not change;
 * otherwise the user's own clients get the legacy muted_topics event (the whole muted list) and
 * then user_topic, as Zulip 9 sends them.
 */
export async function doSetUserTopic(ctx: AppContext, user: UserRow, stream: StreamRow, topic: string, policy: number): Promise<void> {
  await write(ctx, (tx, outbox) => putUserTopic(tx, outbox, user.id, stream.id, topic, policy, ctx.clock.now()));
}

/**
 * doSetUserTopic inside the caller's transaction (Zulip's bulk_do_set_user_topic_visibility_policy
 * for one user); `withMutedTopics` false leaves out the legacy event when another change follows.
 */
export async function putUserTopic(tx: Db, outbox: Outbox, userId: number, streamId: number, topic: string, policy: number, now: number, withMutedTopics = true): Promise<void> {
  const key = topic.toLowerCase();
  const old = await userTopicOf(tx, userId, streamId, key);
  if ((old?.visibility_policy ?? VisibilityPolicy.INHERIT) === policy) return;
  if (policy === VisibilityPolicy.INHERIT) await deleteUserTopic(tx, userId, streamId, key);
  else await upsertUserTopic(tx, { user_id: userId, stream_id: streamId, topic_name: topic, topic_key: key, visibility_policy: policy, last_updated: now });
  if (withMutedTopics) outbox.send({ type: "muted_topics", muted_topics: await mutedTopicsOf(tx, userId) }, [userId]);
  outbox.send({ type: "user_topic", stream_id: streamId, topic_name: topic, last_updated: Math.floor(now / 1000), visibility_policy: policy }, [userId]);
}
