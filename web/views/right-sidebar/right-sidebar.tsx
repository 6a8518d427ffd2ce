/** The right sidebar: people by presence (active, idle, offline), with status emoji and text; a profile card on click. */
import { useEffect, useState } from "preact/hooks";
import { sendPresence } from "../../api/compose.js";
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

/** Zulip's web app pings presence every minute, and counts the user idle after 5 minutes without input. */
const PING_MS = 60000;
const IDLE_AFTER_MS = 5 * 60000;

/** Pings the server with our presence while the app is open. */
function usePresencePings(): void {
  useEffect(() => {
    let lastInput = Date.now();
    let inputSincePing = true;
    const onInput = () => {
      lastInput = Date.now();
      inputSincePing = true;
    };
    const ping = () => {
      const active = document.visibilityState === "visible" && Date.now() - lastInput < IDLE_AFTER_MS;
      void sendPresence(active ? "active" : "idle", inputSincePing).catch(() => undefined);
      inputSincePing = false;
    };
    const events = ["keydown", "mousedown", "pointermove", "wheel", "touchstart"] as const;
    for (const e of events) addEventListener(e, onInput, { passive: true });
    const onVisible = () => {
      if (document.visibilityState === "visible") {
        onInput();
        ping();
      }
    };
    document.addEventListener("visibilitychange", onVisible);
    ping();
    const timer = setInterval(ping, PING_MS);
    return () => {
      clearInterval(timer);
      for (const e of events) removeEventListener(e, onInput);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);
}

const order: Record<Presence, number> = { active: 0, idle: 1, offline: 2 };
const presenceLabel: Record<Presence, string> = { active: "Active", idle: "Idle", offline: "Offline" };

export function RightSidebar() {
  const s = useStateOf((st) => [st.users, st.presence, st.userStatus, st.realmEmoji]);
  const [now, setNow] = useState(() => Date.now() / 1000);
  const [filter, setFilter] = useState("");
  usePresencePings();
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
        <span class="who">
          <span class="name-line">
            <span class="name">{u.full_name}</span>
            {emoji && <Emoji s={s} r={emoji} />}
          </span>
          {text && <span class="status-text">{text}</span>}
        </span>
      </button>
    </li>
  );
}
