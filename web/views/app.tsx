import { connection, route, state } from "../state/store.js";
import { LeftSidebar } from "./left-sidebar.js";
import { Feed } from "./feed.js";
import { Inbox } from "./inbox.js";
import { Recent } from "./recent.js";
import { Drafts } from "./drafts.js";
import { ChannelBrowser } from "./channel-browser.js";
import { SearchBar } from "./search.js";
import { Compose } from "./compose/compose.js";
import { RightSidebar } from "./right-sidebar/right-sidebar.js";

/** The shell: top bar, left sidebar | middle (a view, then compose) | right sidebar. */
export function App() {
  const s = state.value;
  if (!s) return <div class="loading" role="status">Loading…</div>;
  const r = route.value;
  return (
    <div class="app">
      <ConnectionBanner />
      <header class="top">
        <a class="brand" href="#inbox">{String(s.realm.realm_name ?? "Rookery")}</a>
        <SearchBar />
      </header>
      <nav class="left" aria-label="Views and conversations">
        <LeftSidebar />
      </nav>
      <main class="middle">
        {r.view === "inbox" && <Inbox />}
        {r.view === "recent" && <Recent />}
        {r.view === "drafts" && <Drafts />}
        {r.view === "channels" && <ChannelBrowser />}
        {r.view === "feed" && <Feed terms={r.terms} />}
        <Compose />
      </main>
      <aside class="right" aria-label="People">
        <RightSidebar />
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
