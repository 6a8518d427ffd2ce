import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { streamById, type StreamRow } from "../db/queries/streams.js";
import { deleteUserTopic, upsertUserTopic, userTopicOf } from "../db/queries/subscriptions.js";
import type { UserRow } from "../db/queries/users.js";
import { badRequest } from "../http/errors.js";
import { accessStreamById, accessStreamByName } from "../lib/streams.js";
import { mutedTopicsOf, VisibilityPolicy } from "../lib/user-topics.js";


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
  const stream = await db
    .selectFrom("stream")
    .selectAll()
    .where("realm_id", "=", user.realm_id)
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", ref.name.toLowerCase()))
    .executeTakeFirst();
  if (!stream) throw badRequest(error);
  return stream;
}

/**
 * Stores a policy (0 deletes the row). Nothing is sent when the stored value does not change;
 * otherwise the user's own clients get the legacy muted_topics event (the whole muted list) and
 * then user_topic, as Zulip 9 sends them.
 */
export async function doSetUserTopic(ctx: AppContext, user: UserRow, stream: StreamRow, topic: string, policy: number): Promise<void> {
  const key = topic.toLowerCase();
  await write(ctx, async (tx, outbox) => {
    const old = await userTopicOf(tx, user.id, stream.id, key);
    if ((old?.visibility_policy ?? VisibilityPolicy.INHERIT) === policy) return;
    const now = ctx.clock.now();
    if (policy === VisibilityPolicy.INHERIT) await deleteUserTopic(tx, user.id, stream.id, key);
    else await upsertUserTopic(tx, { user_id: user.id, stream_id: stream.id, topic_name: topic, topic_key: key, visibility_policy: policy, last_updated: now });
    outbox.send({ type: "muted_topics", muted_topics: await mutedTopicsOf(tx, user.id) }, [user.id]);
    outbox.send(
      { type: "user_topic", stream_id: stream.id, topic_name: topic, last_updated: Math.floor(now / 1000), visibility_policy: policy },
      [user.id],
    );
  });
}
