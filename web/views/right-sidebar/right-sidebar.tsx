/** The right sidebar: people by presence (active, idle, offline), with status emoji and text; a profile card on click. */
import { useEffect, useState } from "preact/hooks";
import type { State, User } from "../../state/types.js";
import { openDialog } from "../overlay.js";
import { Emoji } from "../message-row.js";
import { useStateOf } from "../select.js";
import { ProfileCard } from "./profile-card.js";

/** Zulip's presence rule: a client heard from within 140 s is active (or idle); older is offline. */
const OFFLINE_THRESHOLD_S = 140;

export type Presence = "active" | "idle" | "offline";

export function presenceOf(s: State, id: number, nowS: number): Presence {
  if (s.userStatus.get(id)?.away === true && id !== s.me) return "offline";
  const p = s.presence.get(id);
  if (!p) return "offline";
  if (nowS - p.active < OFFLINE_THRESHOLD_S) return "active";
  if (nowS - p.idle < OFFLINE_THRESHOLD_S) return "idle";
  return "offline";
}

const order: Record<Presence, number> = { active: 0, idle: 1, offline: 2 };
const presenceLabel: Record<Presence, string> = { active: "Active", idle: "Idle", offline: "Offline" };

export function RightSidebar() {
  const s = useStateOf((st) => [st.users, st.presence, st.userStatus, st.realmEmoji]);
  const [now, setNow] = useState(() => Date.now() / 1000);
  const [filter, setFilter] = useState("");
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now() / 1000), 30000);
    return () => clearInterval(t);
  }, []);
  if (!s) return null;
  const q = filter.trim().toLowerCase();
  const people = [...s.users.values()]
    .filter((u) => u.is_active && !u.is_bot && (q === "" || u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)))
    .map((u) => ({ u, p: presenceOf(s, u.user_id, now) }))
    .sort((a, b) => order[a.p] - order[b.p] || a.u.full_name.localeCompare(b.u.full_name));
  return (
    <div class="right-sidebar">
      <input type="search" class="people-filter" aria-label="Filter people" placeholder="Filter people" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <ul class="people" aria-label="People">
        {people.map(({ u, p }) => (
          <Person key={u.user_id} s={s} u={u} p={p} />
        ))}
      </ul>
    </div>
  );
}

function Person({ s, u, p }: { s: State; u: User; p: Presence }) {
  const status = s.userStatus.get(u.user_id) ?? {};
  const text = typeof status.status_text === "string" ? status.status_text : "";
  const emoji = typeof status.emoji_name === "string" && status.emoji_name !== "" ? { emoji_name: status.emoji_name, emoji_code: String(status.emoji_code ?? ""), reaction_type: String(status.reaction_type ?? "unicode_emoji") } : null;
  return (
    <li class={`person ${p}`}>
      <button type="button" onClick={() => openDialog(u.full_name, () => <ProfileCard userId={u.user_id} />)} aria-label={`${u.full_name} (${presenceLabel[p]})`}>
        <span class={`dot ${p}`} title={presenceLabel[p]} aria-hidden="true" />
        <span class="name">{u.full_name}</span>
        {emoji && <Emoji s={s} r={emoji} />}
        {text && <span class="status-text">{text}</span>}
      </button>
    </li>
  );
}
