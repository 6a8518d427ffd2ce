/**
 * The page's first script, run as soon as it arrives: it asks for the open narrow's first page of
 * messages while the app's modules are still being fetched (api/http.ts hands the answer to the
 * app's identical GET), and draws that list as soon as it comes (views/first-draw.ts), before the
 * app has run; the app then takes the drawn list over.
 */
import { pageState, startFirstPage } from "./api/first-page.js";
import { parseHash } from "./state/narrow.js";
import { startFirstDraw } from "./views/first-draw.js";

const route = parseHash(location.hash, pageState());
if (route.view === "feed") {
  const answer = startFirstPage(route.terms);
  // Its rows' times are written without Intl where that gives the same (views/format.ts, plainFormat).
  if (answer) startFirstDraw(answer, route.terms);
}
