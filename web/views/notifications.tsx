/**
 * Getting the person's attention: desktop notifications and sounds for new messages (as their
 * settings say, web/state/notify.ts decides), the unread count in the page title and on the
 * favicon, and the banner offering desktop notifications. The browser's permission is asked for
 * only when the person clicks a control (this banner, or the notification settings).
 */
import { computed, effect, signal } from "@preact/signals";
import { attentionCount, notifies } from "../state/notify.js";
import { matches } from "../state/narrow.js";
import { route, state } from "../state/store.js";
import { viewTitle } from "./title.js";
import type { Message, ServerEvent, State } from "../state/types.js";

const DISMISSED_KEY = "rookery.notification-banner-dismissed";
const hasApi = typeof Notification !== "undefined";

/** The browser's notification permission ("unsupported" without the API), redrawn when it changes. */
export const permission = signal<NotificationPermission | "unsupported">(hasApi ? Notification.permission : "unsupported");
const dismissed = signal(readDismissed());

function readDismissed(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === "1";
  } catch {
    return false;
  }
}

/** Asks the browser for permission to show notifications (call from a click). */
export async function askPermission(): Promise<void> {
  if (!hasApi) return;
  permission.value = await Notification.requestPermission();
}

// ---- sounds, made here from tones (no sound file) ----

let audio: AudioContext | null = null;
/** Each sound as [frequency Hz, start s, length s] notes. */
const SOUNDS: Record<string, [number, number, number][]> = {
  zulip: [[660, 0, 0.12], [990, 0.1, 0.2]],
  ding: [[1320, 0, 0.35]],
  chime: [[880, 0, 0.18], [1109, 0.12, 0.18], [1319, 0.24, 0.3]],
};

/** Plays the named notification sound ("none" or an unknown name plays nothing). */
export function playSound(name: string): void {
  const notes = SOUNDS[name];
  if (!notes || typeof AudioContext === "undefined") return;
  audio ??= new AudioContext();
  const ctx = audio;
  if (ctx.state === "suspended") void ctx.resume().catch(() => undefined);
  const t0 = ctx.currentTime + 0.01;
  for (const [freq, start, length] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + start);
    gain.gain.exponentialRampToValueAtTime(0.25, t0 + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + length + 0.02);
  }
}

// ---- desktop notifications ----

function textOf(html: string): string {
  const text = new DOMParser().parseFromString(html, "text/html").body.textContent ?? "";
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 150 ? `${flat.slice(0, 150)}…` : flat;
}

function describe(s: State, m: Message): { title: string; body: string; hash: string } {
  const sender = s.users.get(m.sender_id)?.full_name ?? m.sender_full_name;
  if (m.type === "stream") {
    const channel = s.streams.get(m.stream_id ?? 0)?.name ?? String(m.display_recipient);
    return { title: `${sender} (#${channel} > ${m.subject})`, body: textOf(m.content), hash: `#narrow/near/${m.id}` };
  }
  const others = Array.isArray(m.display_recipient) ? m.display_recipient.filter((r) => r.id !== s.me) : [];
  const title = others.length > 1 ? `${sender} (to you and ${others.length - 1} others)` : sender;
  const body = s.settings.pm_content_in_desktop_notifications === false ? `New direct message from ${sender}` : textOf(m.content);
  return { title, body, hash: `#narrow/near/${m.id}` };
}

/** Whether the person is looking at a narrow holding this message right now (no notification then). */
function inView(s: State, m: Message): boolean {
  if (document.visibilityState !== "visible" || !document.hasFocus()) return false;
  const r = route.value;
  return r.view === "feed" && matches(r.terms, m, s.me) === true;
}

/** Notifies of the new messages among `events` (before they are applied), as the settings say. */
export function notifyOf(events: readonly ServerEvent[]): void {
  const s = state.value;
  if (!s) return;
  let sound = false;
  for (const e of events) {
    if (e.type !== "message") continue;
    const m = e.message as Message;
    const flags = Array.isArray(e.flags) ? (e.flags as string[]) : (m.flags ?? []);
    if (inView(s, m)) continue;
    if (notifies(s, m, flags, "audible")) sound = true;
    if (!hasApi || Notification.permission !== "granted" || !notifies(s, m, flags, "desktop")) continue;
    const { title, body, hash } = describe(s, m);
    try {
      const n = new Notification(title, { body, tag: `rookery-${m.id}` });
      n.onclick = () => {
        window.focus();
        location.hash = hash;
        n.close();
      };
    } catch {
      // Some browsers (Chrome on Android) allow notifications only from a service worker: none then.
    }
  }
  try {
    if (sound) playSound(String(s.settings.notification_sound ?? "zulip"));
  } catch {
    // No audio output: the notification stays silent, the events are still applied.
  }
}

// ---- the title and the favicon ----

const count = computed(() => (state.value ? attentionCount(state.value) : 0));
const realmName = computed(() => String(state.value?.realm.realm_name ?? document.title));

let original = "";
let picture: HTMLImageElement | null = null;

function iconLink(): HTMLLinkElement | null {
  return document.querySelector<HTMLLinkElement>('link[rel="icon"]');
}

/** The favicon with the count in a red disc at its top right, as a PNG data URL. */
function badged(n: number, done: (url: string) => void): void {
  const draw = () => {
    if (!picture) return;
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const g = canvas.getContext("2d");
    if (!g) return;
    g.drawImage(picture, 0, 0, 64, 64);
    const text = n > 99 ? "99+" : String(n);
    g.fillStyle = "#d92d20";
    g.beginPath();
    g.arc(44, 20, 20, 0, 2 * Math.PI);
    g.fill();
    g.fillStyle = "#fff";
    g.font = `bold ${text.length > 2 ? 18 : 26}px sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(text, 44, 21);
    done(canvas.toDataURL("image/png"));
  };
  if (picture?.complete) return draw();
  picture ??= new Image();
  picture.onload = draw;
  if (!picture.src) picture.src = original;
}

/** Keeps the page title ("(3) Inbox - Realm name") and the favicon's badge in step with the unread count. */
export function watchAttention(): () => void {
  const title = effect(() => {
    const n = count.value;
    const name = viewTitle.value ? `${viewTitle.value} - ${realmName.value}` : realmName.value;
    document.title = n > 0 ? `(${n}) ${name}` : name;
  });
  // Its own effect: the badge is drawn again when the count changes, not when the view (the title) does.
  const icon = effect(() => {
    const n = count.value;
    const link = iconLink();
    if (!link) return;
    original ||= link.href;
    if (n === 0) {
      link.href = original;
      return;
    }
    badged(n, (url) => {
      if (count.value === n) link.href = url;
    });
  });
  return () => {
    title();
    icon();
  };
}

/** A dismissible offer to turn on desktop notifications, while the browser has not been asked. */
export function NotificationBanner() {
  const s = state.value;
  if (!s || permission.value !== "default" || dismissed.value || s.settings.enable_desktop_notifications !== true) return null;
  const dismiss = () => {
    dismissed.value = true;
    try {
      localStorage.setItem(DISMISSED_KEY, "1");
    } catch {
      // Private mode: dismissed for this page only.
    }
  };
  return (
    <div class="notify-banner" role="region" aria-label="Desktop notifications">
      Get desktop notifications of direct messages and mentions?{" "}
      <button type="button" class="link" onClick={() => void askPermission()}>
        Enable desktop notifications
      </button>{" "}
      <button type="button" class="link" onClick={dismiss}>
        Not now
      </button>
    </div>
  );
}
