import { mutedTopicsOf } from "../channels/user-topics.js";
import { activeStreamsOfRealm } from "../../db/queries/streams.js";
import { userTopicsOfUser } from "../../db/queries/subscriptions.js";
import type { StateSection } from "./types.js";

/** One entry of /register's user_topics. */
interface UserTopicEntry {
  stream_id: number;
  topic_name: string;
  visibility_policy: number;
  last_updated: number;
}

/**
 * user_topics, and the legacy muted_topics (left out when the client named its event types and
 * user_topic is among them, as Zulip does), with user_topic / muted_topics events applied.
 */
export const userTopicSection: StateSection = {
  types: ["user_topic", "muted_topics"],
  async fetch(ctx, user, want, _opts, state) {
    // `want` accepts every name only when no event_types were given.
    const typesGiven = !want("\u0000");
    if (want("user_topic")) {
      const active = new Set((await activeStreamsOfRealm(ctx.db, user.realm_id)).map((s) => s.id));
      const rows = (await userTopicsOfUser(ctx.db, user.id)).filter((r) => active.has(r.stream_id));
      state.user_topics = rows.map((r) => ({
        stream_id: r.stream_id,
        topic_name: r.topic_name,
        visibility_policy: r.visibility_policy,
        last_updated: Math.floor(r.last_updated / 1000),
      }));
    }
    if (want("muted_topics") && !(typesGiven && want("user_topic"))) state.muted_topics = await mutedTopicsOf(ctx.db, user.id);
  },
  apply(state, event) {
    if (event.type === "muted_topics" && Array.isArray(state.muted_topics)) {
      state.muted_topics = structuredClone(event.muted_topics);
      return;
    }
    if (event.type !== "user_topic" || !Array.isArray(state.user_topics)) return;
    const key = event.topic_name.toLowerCase();
    const rest = (state.user_topics as UserTopicEntry[]).filter((t) => !(t.stream_id === event.stream_id && t.topic_name.toLowerCase() === key));
    if (event.visibility_policy !== 0) {
      const { stream_id, topic_name, visibility_policy, last_updated } = event;
      rest.push({ stream_id, topic_name, visibility_policy, last_updated });
    }
    state.user_topics = rest;
  },
};
