import type { Db } from "../../db/index.js";
import { streamById } from "../../db/queries/streams.js";
import { userTopicsOfUser } from "../../db/queries/subscriptions.js";

/** Topic visibility policies: 0 none (inherit), 1 muted, 2 unmuted, 3 followed. */
export const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

/** The legacy muted_topics list: [channel name, topic, timestamp] for each muted topic in an active channel. */
export async function mutedTopicsOf(db: Db, userId: number): Promise<[string, string, number][]> {
  const rows = (await userTopicsOfUser(db, userId)).filter((r) => r.visibility_policy === VisibilityPolicy.MUTED);
  const out: [string, string, number][] = [];
  for (const row of rows) {
    const stream = await streamById(db, row.stream_id);
    if (stream && !stream.deactivated) out.push([stream.name, row.topic_name, Math.floor(row.last_updated / 1000)]);
  }
  return out;
}
