/**
 * The shell's one hook into settings and administration: the gear links in the top bar, and the
 * panel itself, loaded on first use (its chunk is outside the first-load JavaScript).
 */
import { signal } from "@preact/signals";
import type { Route } from "../state/narrow.js";

type Panel = typeof import("./settings/panel.js");
const loaded = signal<Panel | null>(null);
const failed = signal("");
let loading: Promise<void> | null = null;

function load(): void {
  loading ??= import("./settings/panel.js").then(
    (m) => {
      loaded.value = m;
    },
    (err: Error) => {
      loading = null;
      failed.value = err.message;
    },
  );
}

/** The settings (#settings/...) or organisation (#organization/...) panel. */
export function SettingsSlot({ route }: { route: Extract<Route, { view: "settings" | "organization" }> }) {
  const m = loaded.value;
  if (m) return <m.Panel route={route} />;
  load();
  if (failed.value) return <p class="empty" role="alert">Settings could not be loaded: {failed.value}</p>;
  return <p class="empty" role="status">Loading…</p>;
}

/** The gear: personal settings for everyone, organisation settings beside it. */
export function GearLinks() {
  return (
    <a class="gear" href="#settings/profile" aria-label="Settings" title="Settings" onMouseEnter={load} onFocus={load}>
      ⚙
    </a>
  );
}
