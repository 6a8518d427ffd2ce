import { signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { connection, registered, route } from "../state/store.js";
import { useStateOf } from "./select.js";
import { LeftSidebar } from "./left-sidebar.js";
import { Feed } from "./feed.js";
import { Inbox } from "./inbox.js";
import { Recent } from "./recent.js";
import { Drafts } from "./drafts.js";
import { ChannelBrowser } from "./channel-browser.js";
import { SearchBar } from "./search.js";
import { Compose } from "./compose/compose.js";
import { RightSidebar } from "./right-sidebar/right-sidebar.js";
import { GearLinks, SettingsSlot } from "./settings-slot.js";
import { NotificationBanner } from "./notifications.js";

/** On a phone-width screen the left sidebar is a panel over the middle, opened from the top bar. */
const navOpen = signal(false);

/** The shell: top bar, left sidebar | middle (a view, then compose) | right sidebar. */
export function App() {
  const s = useStateOf((st) => [st.realm, st.settings]);
  const r = route.value;
  // Before /register answers, only the open narrow's messages are drawn (from its first page).
  const ready = registered.value;
  // Going somewhere closes the panel.
  useEffect(() => {
    navOpen.value = false;
  }, [r]);
  if (!s) return <div class="loading" role="status">Loading…</div>;
  // Zulip's color_scheme: 1 follows the system, 2 dark, 3 light.
  const scheme = Number(s.settings.color_scheme ?? 1);
  document.documentElement.classList.toggle("dark", scheme === 2);
  document.documentElement.classList.toggle("light", scheme === 3);
  return (
    <div class={`app${navOpen.value ? " nav-open" : ""}${r.view === "settings" || r.view === "organization" ? " settings-open" : ""}`}>
      <div class="banners">
        <ConnectionBanner />
        <NotificationBanner />
      </div>
      <header class="top">
        <button type="button" class="menu-toggle" aria-label="Views and conversations" aria-expanded={navOpen.value} aria-controls="left-nav" onClick={() => (navOpen.value = !navOpen.value)}>
          ☰
        </button>
        <a class="brand" href="#inbox">{String(s.realm.realm_name ?? "Rookery")}</a>
        {ready && <SearchBar />}
        {ready && <GearLinks />}
      </header>
      <nav class="left" id="left-nav" aria-label="Views and conversations">
        {ready && <LeftSidebar />}
      </nav>
      <main class="middle">
        {ready && r.view === "inbox" && <Inbox />}
        {ready && r.view === "recent" && <Recent />}
        {ready && r.view === "drafts" && <Drafts />}
        {ready && r.view === "channels" && <ChannelBrowser />}
        {r.view === "feed" && <Feed terms={r.terms} />}
        {ready && (r.view === "settings" || r.view === "organization") && <SettingsSlot route={r} />}
        {ready && <Compose />}
      </main>
      <aside class="right" aria-label="People">
        {ready && <RightSidebar />}
      </aside>
    </div>
  );
}

function ConnectionBanner() {
  const c = connection.value;
  if (c.status === "connected") return null;
  return (
    <div class="banner" role="alert">
      Reconnecting to the server{c.retryIn > 0 ? ` (trying again in ${c.retryIn} s)` : ""}…
    </div>
  );
}
