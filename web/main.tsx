/** The browser app's entry: reads the CSRF token, registers, runs the event loop, draws the app. */
import { render } from "preact";
import { initHttp } from "./api/http.js";
import { startEvents } from "./api/events.js";
import { loadRecent, prefetchList } from "./api/lists.js";
import { parseHash } from "./state/narrow.js";
import { fromRegister } from "./state/snapshot.js";
import { settleEchoes } from "./state/local-echo.js";
import { connection, dispatch, route, state, update } from "./state/store.js";
import type { ServerEvent } from "./state/types.js";
import { App } from "./views/app.js";
import "./styles/app.css";

const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? "";
initHttp(token);

function readRoute(): void {
  const s = state.value;
  if (s) route.value = parseHash(location.hash, s);
}
addEventListener("hashchange", readRoute);

// The first narrow's messages are fetched while /register runs (its ids need no state to parse).
const first = parseHash(location.hash, fromRegister({}));
if (first.view === "feed") prefetchList(first.terms);
let registered = false;

startEvents({
  onRegister(snapshot) {
    // A new queue: start again from the snapshot; the open narrow refetches its messages.
    state.value = fromRegister(snapshot);
    readRoute();
    // Recent conversations and topic lists want the newest messages; the open narrow comes first.
    const recentNow = route.value.view === "recent" || route.value.view === "inbox" || registered;
    registered = true;
    setTimeout(() => void loadRecent().catch(() => undefined), recentNow ? 0 : 1500);
  },
  onEvents(events) {
    dispatch(events as ServerEvent[]);
    update((s) => settleEchoes(s, events as ServerEvent[]));
  },
  onConnection(status, retryIn) {
    connection.value = { status, retryIn };
  },
});

const root = document.getElementById("app");
if (root) render(<App />, root);
