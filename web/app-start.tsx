/** The browser app itself (main.tsx imports it): reads the CSRF token, registers, runs the event loop, draws the app. */
import { render } from "preact";
import { batch } from "@preact/signals";
import { pageState } from "./api/first-page.js";
import { initHttp } from "./api/http.js";
import { startEvents } from "./api/events.js";
import { loadRecent, prefetchedPage, prefetchList, withPrefetched } from "./api/lists.js";
import { earlyState } from "./state/early.js";
import { parseHash } from "./state/narrow.js";
import { fromRegister } from "./state/snapshot.js";
import { settleEchoes } from "./state/local-echo.js";
import { connection, dispatch, registered, route, state, update } from "./state/store.js";
import type { ServerEvent } from "./state/types.js";
import { App } from "./views/app.js";
import { warmFormats } from "./views/format.js";
import { installShortcuts } from "./views/keyboard/shortcuts.js";
import { notifyOf, watchAttention } from "./views/notifications.js";

/** Starts the app; `bootDrew` when boot.ts has drawn the open narrow's list into #app (views/first-draw.ts). */
export function start(bootDrew: boolean): void {
  const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? "";
  initHttp(token);

  function readRoute(): void {
    const s = state.value;
    if (s) route.value = parseHash(location.hash, s);
  }

  /** How long the first draw waits for the open narrow's messages, so shell and list are drawn and laid out once. */
  const FIRST_PAGE_WAIT_MS = 1000;
  addEventListener("hashchange", readRoute);
  // Before any view's own keydown listener, so a view can see what a shortcut did.
  installShortcuts();

  // The first narrow's messages are fetched while /register runs (its ids need no state to parse),
  // and drawn as soon as they come: each message names its sender, avatar and channel. /register
  // then replaces that early state (the page merged in again, and fetched again past its end when a
  // message was sent before the event queue existed: lists.ts withFirstPage).
  const pageTitle = document.title;
  const firstHash = location.hash;
  const first = parseHash(firstHash, pageState(pageTitle));
  if (first.view === "feed") {
    prefetchList(first.terms);
    void prefetchedPage(first.terms)?.then((answer) => {
      if (!answer || registered.value || state.value || location.hash !== firstHash) return;
      const early = earlyState(pageState(pageTitle), first.terms, answer);
      if (!early) return;
      performance.mark("rookery:early-state");
      state.value = early;
      route.value = first;
      mount();
    });
  }

  const PRESENCE_GATHER_MS = 1000;
  let gathered: ServerEvent[] = [];
  let gatherTimer: ReturnType<typeof setTimeout> | null = null;
  function flushPresence(): void {
    if (gatherTimer) clearTimeout(gatherTimer);
    gatherTimer = null;
    if (gathered.length === 0) return;
    const events = gathered;
    gathered = [];
    dispatch(events);
  }

  startEvents({
    async onRegister(snapshot) {
      // A new queue: start again from the snapshot (presence gathered from the old one is in it); the open narrow refetches its messages.
      gathered = [];
      let next = fromRegister(snapshot);
      const r = parseHash(location.hash, next);
      performance.mark("rookery:registered");
      const again = registered.value;
      if (!again && r.view === "feed") next = await withPrefetched(next, r.terms, FIRST_PAGE_WAIT_MS);
      batch(() => {
        state.value = next;
        registered.value = true;
        readRoute();
      });
      mount();
      // Recent conversations and topic lists want the newest messages; the open narrow comes first.
      const recentNow = route.value.view === "recent" || route.value.view === "inbox" || again;
      setTimeout(() => void loadRecent().catch(() => undefined), recentNow ? 0 : 1500);
    },
    onEvents(events) {
      // Presence alone can change many times a second in a large organisation and only the people
      // list shows it: it is gathered and applied once a second. Anything else is applied at once,
      // after the presence gathered before it.
      if (events.every((e) => e.type === "presence")) {
        gathered.push(...(events as ServerEvent[]));
        gatherTimer ??= setTimeout(flushPresence, PRESENCE_GATHER_MS);
        return;
      }
      flushPresence();
      notifyOf(events as ServerEvent[]);
      dispatch(events as ServerEvent[]);
      update((s) => settleEchoes(s, events as ServerEvent[]));
    },
    onConnection(status, retryIn) {
      connection.value = { status, retryIn };
    },
  });

  // The app is drawn into #app at once, unless boot.ts has drawn the open narrow's list there: then
  // into it, once the state it was drawn from is set (Preact takes its elements over; a first render
  // without state would replace them with "Loading…").
  const root = document.getElementById("app");
  let mounted = false;
  function mount(): void {
    if (mounted || !root || (bootDrew && !state.value)) return;
    mounted = true;
    render(<App />, root);
  }
  mount();
  // While the first answers are on their way: the formats the first messages are drawn with.
  warmFormats(fromRegister({}));
  watchAttention();
}
