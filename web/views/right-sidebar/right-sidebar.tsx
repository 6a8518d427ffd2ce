/** The right sidebar: people by presence (active, idle, offline), with status emoji and text; a profile card on click. */
import { Component } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { sendPresence } from "../../api/compose.js";
import { state } from "../../state/store.js";
import type { State, User } from "../../state/types.js";
import { openDialog } from "../overlay.js";
import { Emoji } from "../message-row.js";
import { useStateOf } from "../select.js";
import { ProfileCard } from "./profile-card.js";

/** Zulip's presence rule: a client heard from within 140 s is active (or idle); older is offline. */
const OFFLINE_THRESHOLD_S = 140;

export type Presence = "active" | "idle" | "offline";

export function presenceOf(s: State, id: number, nowS: number, presence: State["presence"] = s.presence): Presence {
  if (s.userStatus.get(id)?.away === true && id !== s.me) return "offline";
  const p = presence.get(id);
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
    // The minute's ping also brings back everyone's presence (Zulip's web app redraws from it).
    const ping = (withRealm = false) => {
      const active = document.visibilityState === "visible" && Date.now() - lastInput < IDLE_AFTER_MS;
      void sendPresence(active ? "active" : "idle", inputSincePing, withRealm).catch(() => undefined);
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
    const timer = setInterval(() => ping(true), PING_MS);
    return () => {
      clearInterval(timer);
      for (const e of events) removeEventListener(e, onInput);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);
}

const presenceLabel: Record<Presence, string> = { active: "Active", idle: "Idle", offline: "Offline" };

/** Presence changes are gathered and drawn at most this often (a large organisation changes many times a second). */
const PRESENCE_REDRAW_MS = 2000;
/** People rows drawn at first and added as the list scrolls near its end (Zulip's buddy list grows the same way). */
const ROWS_STEP = 50;

/** state.presence as the list draws it: the newest, taken at most once per PRESENCE_REDRAW_MS. */
function useGatheredPresence(): State["presence"] | undefined {
  const [shown, setShown] = useState(() => state.peek()?.presence);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let latest = state.peek()?.presence;
    const stop = state.subscribe((s) => {
      if (!s || s.presence === latest || timer) return;
      timer = setTimeout(() => {
        timer = null;
        latest = state.peek()?.presence;
        setShown(latest);
      }, PRESENCE_REDRAW_MS);
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, []);
  return shown;
}

const collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

export function RightSidebar() {
  const s = useStateOf((st) => [st.users, st.userStatus, st.realmEmoji]);
  const presence = useGatheredPresence();
  const [now, setNow] = useState(() => Date.now() / 1000);
  const [filter, setFilter] = useState("");
  // The list is drawn after the first paint: the messages come first.
  const [rows, setRows] = useState(0);
  const end = useRef<HTMLLIElement>(null);
  usePresencePings();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setRows(ROWS_STEP), 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now() / 1000), 30000);
    return () => clearInterval(t);
  }, []);
  // Everyone, by name: sorted again only when the users change.
  const byName = useMemo(() => (s ? [...s.users.values()].filter((u) => u.is_active && !u.is_bot).sort((a, b) => collator.compare(a.full_name, b.full_name)) : []), [s?.users]);
  const q = filter.trim().toLowerCase();
  const matching = q === "" ? byName : byName.filter((u) => u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q));
  const people: { u: User; p: Presence }[] = [];
  if (s) {
    const groups: Record<Presence, { u: User; p: Presence }[]> = { active: [], idle: [], offline: [] };
    for (const u of matching) {
      const p = presenceOf(s, u.user_id, now, presence ?? s.presence);
      groups[p].push({ u, p });
    }
    people.push(...groups.active, ...groups.idle, ...groups.offline);
  }
  const more = rows > 0 && people.length > rows;
  useEffect(() => {
    const li = end.current;
    if (!li || !more) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setRows((n) => n + ROWS_STEP);
    }, { rootMargin: "600px" });
    seen.observe(li);
    return () => seen.disconnect();
  }, [more, rows]);
  if (!s) return null;
  return (
    <div class="right-sidebar">
      <input
        type="search"
        class="people-filter"
        aria-label="Filter people"
        placeholder="Filter people"
        value={filter}
        onInput={(e) => {
          setFilter(e.currentTarget.value);
          setRows(ROWS_STEP);
        }}
      />
      <ul class="people" aria-label="People">
        {people.slice(0, rows).map(({ u, p }) => (
          <Person key={u.user_id} s={s} u={u} p={p} status={s.userStatus.get(u.user_id)} />
        ))}
        {more && <li class="more" ref={end} aria-hidden="true" />}
      </ul>
    </div>
  );
}

type PersonProps = { u: User; p: Presence; status: Record<string, unknown> | undefined; s: State };

/** One person: redrawn only when their presence, status or record changes (or custom emoji do). */
class Person extends Component<PersonProps> {
  override shouldComponentUpdate(next: PersonProps): boolean {
    const a = this.props;
    return a.u !== next.u || a.p !== next.p || a.status !== next.status || a.s.realmEmoji !== next.s.realmEmoji;
  }

  override render({ s, u, p, status = {} }: PersonProps) {
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
}
