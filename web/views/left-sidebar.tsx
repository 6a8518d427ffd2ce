import { useEffect, useState } from "preact/hooks";
import { fetchTopics } from "../api/messages.js";
import { conversationKey, dmKeyIds, userName } from "../state/conversation.js";
import { canonicalOperator, termsToHash } from "../state/narrow.js";
import { route, unreadByStream, unreadCounts, update } from "../state/store.js";
import { useStateOf } from "./select.js";
import type { State, Sub } from "../state/types.js";

/** Views, channels (the open one with its topics), direct-message conversations. */
export function LeftSidebar() {
  const s = useStateOf((st) => [st.subs, st.streams, st.unread, st.mentions, st.starred, st.drafts, st.topics, st.recentDms, st.users]);
  if (!s) return null;
  const r = route.value;
  const totalUnread = s.unread.size;
  const at = (view: string) => (r.view === view ? "page" : undefined);
  const feedAt = (test: (ops: string) => boolean) => (r.view === "feed" && test(r.terms.map((t) => `${t.operator}:${t.operand}`).join(" ")) ? "page" : undefined);
  return (
    <div class="left-sidebar">
      <ul class="views">
        <SidebarLink href="#inbox" label="Inbox" count={totalUnread} current={at("inbox")} />
        <SidebarLink href="#recent" label="Recent conversations" current={at("recent")} />
        <SidebarLink href="#feed" label="Combined feed" current={feedAt((o) => o === "")} />
        <SidebarLink href="#narrow/is/mentioned" label="Mentions" count={s.mentions.size} current={feedAt((o) => o === "is:mentioned")} />
        <SidebarLink href="#narrow/is/starred" label="Starred messages" count={s.starred.size} muted current={feedAt((o) => o === "is:starred")} />
        <SidebarLink href="#drafts" label="Drafts" count={s.drafts.size} muted current={at("drafts")} />
      </ul>
      <Channels s={s} />
      <DirectMessages s={s} />
    </div>
  );
}

function SidebarLink(props: { href: string; label: string; count?: number; muted?: boolean; current?: "page" | undefined }) {
  return (
    <li>
      <a href={props.href} aria-current={props.current} class={props.current ? "active" : undefined}>
        <span class="label">{props.label}</span>
        {props.count ? <span class={props.muted ? "count muted" : "count"}>{props.count}</span> : null}
      </a>
    </li>
  );
}

/** The channel id and topic of the open narrow, if it is one. */
function openChannel(): { streamId: number; topic: string | null } | null {
  const r = route.value;
  if (r.view !== "feed") return null;
  const ch = r.terms.find((t) => canonicalOperator(t.operator) === "channel" && !t.negated);
  if (!ch) return null;
  const topic = r.terms.find((t) => canonicalOperator(t.operator) === "topic" && !t.negated);
  return { streamId: Number(ch.operand), topic: topic ? topic.operand : null };
}

const lower = (s: string) => s.toLowerCase();
// Plain comparison, not localeCompare: the collator costs tens of milliseconds to start on a slow phone.
const byPinThenName = (a: Sub, b: Sub) => Number(b.pin_to_top) - Number(a.pin_to_top) || (lower(a.name) < lower(b.name) ? -1 : lower(a.name) > lower(b.name) ? 1 : 0);

function Channels({ s }: { s: State }) {
  const counts = unreadByStream.value;
  const open = openChannel();
  const subs = [...s.subs.values()].sort(byPinThenName);
  return (
    <section class="channels" aria-label="Channels">
      <h2>
        Channels <a class="browse" href="#channels" title="Browse, join and create channels" aria-label="Browse channels">+</a>
      </h2>
      <ul>
        {subs.map((sub) => {
          const href = termsToHash([{ operator: "channel", operand: String(sub.stream_id) }], s);
          const isOpen = open?.streamId === sub.stream_id;
          return (
            <li key={sub.stream_id} class={sub.is_muted ? "muted-channel" : undefined}>
              <a href={href} class={isOpen && open?.topic === null ? "active" : undefined} aria-current={isOpen && open?.topic === null ? "page" : undefined}>
                <span class="swatch" style={{ background: sub.color }} aria-hidden="true">{sub.invite_only ? "🔒" : "#"}</span>
                <span class="label">{sub.name}</span>
                {counts.get(sub.stream_id) ? <span class="count">{counts.get(sub.stream_id)}</span> : null}
              </a>
              {isOpen && <Topics s={s} streamId={sub.stream_id} openTopic={open?.topic ?? null} />}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Topics({ s, streamId, openTopic }: { s: State; streamId: number; openTopic: string | null }) {
  const [all, setAll] = useState(false);
  useEffect(() => {
    let live = true;
    fetchTopics(streamId)
      .then((answer) => {
        if (!live) return;
        update((st) => {
          const known = new Map(st.topics.get(streamId) ?? []);
          for (const t of answer.topics) if ((known.get(t.name) ?? 0) < t.max_id) known.set(t.name, t.max_id);
          return { ...st, topics: new Map(st.topics).set(streamId, known) };
        });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [streamId]);
  const counts = unreadCounts.value;
  const topics = [...(s.topics.get(streamId) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1]);
  const shown = all ? topics : topics.filter(([name], i) => i < 8 || (counts.get(conversationKey({ kind: "stream", streamId, topic: name }))?.length ?? 0) > 0 || name.toLowerCase() === openTopic?.toLowerCase());
  return (
    <ul class="topics" aria-label="Topics">
      {shown.map(([name]) => {
        const n = counts.get(conversationKey({ kind: "stream", streamId, topic: name }))?.length ?? 0;
        const active = name.toLowerCase() === openTopic?.toLowerCase();
        return (
          <li key={name}>
            <a href={termsToHash([{ operator: "channel", operand: String(streamId) }, { operator: "topic", operand: name }], s)} class={active ? "active" : undefined} aria-current={active ? "page" : undefined}>
              <span class="label">{name === "" ? "general chat" : name}</span>
              {n ? <span class="count">{n}</span> : null}
            </a>
          </li>
        );
      })}
      {!all && topics.length > shown.length && (
        <li>
          <button type="button" class="link" onClick={() => setAll(true)}>
            Show all topics
          </button>
        </li>
      )}
    </ul>
  );
}

function DirectMessages({ s }: { s: State }) {
  const counts = unreadCounts.value;
  const conversations = new Map(s.recentDms);
  for (const ref of s.unread.values()) if (ref.kind === "dm" && !conversations.has(ref.key)) conversations.set(ref.key, 0);
  const sorted = [...conversations.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15);
  const r = route.value;
  const openDm = r.view === "feed" && r.terms.length >= 1 && canonicalOperator(r.terms[0]?.operator ?? "") === "dm" ? r.terms[0]?.operand : null;
  return (
    <section class="dms" aria-label="Direct messages">
      <h2>Direct messages</h2>
      <ul>
        {sorted.map(([key]) => {
          const ids = dmKeyIds(key);
          const name = ids.map((id) => userName(s, id)).join(", ");
          const n = counts.get(`d:${key}`)?.length ?? 0;
          const active = openDm === key;
          return (
            <li key={key}>
              <a href={termsToHash([{ operator: "dm", operand: key }], s)} class={active ? "active" : undefined} aria-current={active ? "page" : undefined}>
                <span class="label">{name}</span>
                {n ? <span class="count">{n}</span> : null}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
