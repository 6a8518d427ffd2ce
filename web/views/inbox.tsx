import { markTopicRead } from "../api/messages.js";
import { setViewTitle } from "./title.js";
import { dmKeyIds, userName } from "../state/conversation.js";
import { termsToHash } from "../state/narrow.js";
import { useStateOf } from "./select.js";

/** Every conversation with unread messages: DMs first, then channels with their topics. */
export function Inbox() {
  const s = useStateOf((st) => [st.unread, st.streams, st.subs, st.users, st.realm]);
  if (!s) return null;
  setViewTitle("Inbox");
  const dms = new Map<string, number>();
  const channels = new Map<number, Map<string, number>>();
  for (const ref of s.unread.values()) {
    if (ref.kind === "dm") dms.set(ref.key, (dms.get(ref.key) ?? 0) + 1);
    else {
      const topics = channels.get(ref.streamId) ?? new Map<string, number>();
      const known = [...topics.keys()].find((t) => t.toLowerCase() === ref.topic.toLowerCase()) ?? ref.topic;
      topics.set(known, (topics.get(known) ?? 0) + 1);
      channels.set(ref.streamId, topics);
    }
  }
  const streams = [...channels.keys()].sort((a, b) => (s.streams.get(a)?.name ?? "").localeCompare(s.streams.get(b)?.name ?? ""));
  return (
    <section class="list-view inbox" aria-label="Inbox">
      <header class="narrow-header">
        <h1>Inbox</h1>
      </header>
      <div class="scroller">
        {s.unread.size === 0 && <p class="empty">You have no unread messages.</p>}
        {dms.size > 0 && (
          <div class="inbox-group">
            <h2>Direct messages</h2>
            <ul>
              {[...dms.entries()].map(([key, n]) => (
                <li key={key}>
                  <a href={termsToHash([{ operator: "dm", operand: key }], s)}>
                    <span class="label">{dmKeyIds(key).map((id) => userName(s, id)).join(", ")}</span>
                    <span class="count">{n}</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
        {streams.map((id) => {
          const stream = s.streams.get(id);
          const topics = channels.get(id) ?? new Map<string, number>();
          const total = [...topics.values()].reduce((a, b) => a + b, 0);
          return (
            <div class="inbox-group" key={id}>
              <h2 style={{ "--channel-color": s.subs.get(id)?.color ?? "#c2c2c2" }}>
                <a href={termsToHash([{ operator: "channel", operand: String(id) }], s)}># {stream?.name ?? String(id)}</a>
                <span class="count">{total}</span>
                <button type="button" class="link" onClick={() => void markTopicRead(id).catch(() => undefined)}>
                  Mark as read
                </button>
              </h2>
              <ul>
                {[...topics.entries()].map(([topic, n]) => (
                  <li key={topic}>
                    <a href={termsToHash([{ operator: "channel", operand: String(id) }, { operator: "topic", operand: topic }], s)}>
                      <span class="label">{topic === "" ? "general chat" : topic}</span>
                      <span class="count">{n}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </div>
    </section>
  );
}
