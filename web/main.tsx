/** The browser app's entry: reads the CSRF token, registers, runs the event loop, draws the app. */
import { render } from "preact";
import { initHttp } from "./api/http.js";
import { startEvents } from "./api/events.js";
import { loadRecent } from "./api/lists.js";
import { parseHash } from "./state/narrow.js";
import { fromRegister } from "./state/snapshot.js";
import { connection, dispatch, route, state } from "./state/store.js";
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

startEvents({
  onRegister(snapshot) {
    // A new queue: start again from the snapshot; the open narrow refetches its messages.
    state.value = fromRegister(snapshot);
    readRoute();
    void loadRecent().catch(() => undefined);
  },
  onEvents(events) {
    dispatch(events as ServerEvent[]);
  },
  onConnection(status, retryIn) {
    connection.value = { status, retryIn };
  },
});

const root = document.getElementById("app");
if (root) render(<App />, root);
