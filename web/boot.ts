/**
 * The page's first script, run as soon as it arrives: it asks for the open narrow's first page of
 * messages while the app's modules are still being fetched (api/http.ts hands the answer to the
 * app's identical GET), and draws that list as soon as it comes (views/first-draw.ts), before the
 * app has run; the app then takes the drawn list over.
 */
import { startFirstPage } from "./api/first-page.js";
import { parseHash } from "./state/narrow.js";
import { fromRegister } from "./state/snapshot.js";
import { startFirstDraw } from "./views/first-draw.js";
import { warmFormats } from "./views/format.js";

const route = parseHash(location.hash, fromRegister({}));
if (route.view === "feed") {
  const answer = startFirstPage(route.terms);
  if (answer) {
    startFirstDraw(answer, route.terms);
    // While the answer is on its way: the time and day formats its rows are drawn with (a
    // formatter's first use loads locale and time zone data, tens of milliseconds on a slow CPU).
    warmFormats(fromRegister({}));
  }
}
