import { conversationKey, dmKeyIds, userName } from "../state/conversation.js";
import { setViewTitle } from "./title.js";
import { termsToHash } from "../state/narrow.js";
import { unreadCounts } from "../state/store.js";
import { useStateOf } from "./select.js";
import { ago } from "./format.js";

/** Conversations by their newest message: channels' topics and DMs together. */
export function Recent() {
  const s = useStateOf((st) => [st.topics, st.recentDms, st.messages, st.subs, st.streams, st.users, st.unread, st.realm]);
  if (!s) return null;
  setViewTitle("Recent conversations");
  const counts = unreadCounts.value;
  const rows: { key: string; id: number; href: string; where: string; topic: string; unread: number }[] = [];
  for (const [streamId, topics] of s.topics) {
    if (!s.subs.has(streamId)) continue;
    for (const [topic, id] of topics) {
      rows.push({ key: `s${streamId}:${topic}`, id, href: termsToHash([{ operator: "channel", operand: String(streamId) }, { operator: "topic", operand: topic }], s), where: `# ${s.streams.get(streamId)?.name ?? streamId}`, topic: topic === "" ? "general chat" : topic, unread: counts.get(conversationKey({ kind: "stream", streamId, topic }))?.length ?? 0 });
    }
  }
  for (const [key, id] of s.recentDms) {
    rows.push({ key: `d${key}`, id, href: termsToHash([{ operator: "dm", operand: key }], s), where: "Direct message", topic: dmKeyIds(key).map((u) => userName(s, u)).join(", "), unread: counts.get(`d:${key}`)?.length ?? 0 });
  }
  rows.sort((a, b) => b.id - a.id);
  return (
    <section class="list-view recent" aria-label="Recent conversations">
      <header class="narrow-header">
        <h1>Recent conversations</h1>
      </header>
      <div class="scroller">
        {rows.length === 0 && <p class="empty">No conversations yet.</p>}
        <table class="recent-table">
          <tbody>
            {rows.slice(0, 200).map((r) => {
              const m = s.messages.get(r.id);
              return (
                <tr key={r.key}>
                  <td class="where">{r.where}</td>
                  <td class="topic">
                    <a href={r.href}>{r.topic}</a>
                  </td>
                  <td class="unread">{r.unread ? <span class="count">{r.unread}</span> : null}</td>
                  <td class="sender">{m ? userName(s, m.sender_id) : ""}</td>
                  <td class="when">{m ? ago(s, m.timestamp) : ""}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
