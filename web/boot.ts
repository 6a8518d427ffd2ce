/**
 * The page's first script (about 2 KB gzipped), run as soon as it arrives: it asks for the open
 * narrow's first page of messages while the app's modules are still being fetched and evaluated,
 * so the answer is there when the app wants it (api/http.ts hands it to the app's identical GET).
 */
import { startFirstPage } from "./api/first-page.js";
import { parseHash } from "./state/narrow.js";
import { fromRegister } from "./state/snapshot.js";

const route = parseHash(location.hash, fromRegister({}));
if (route.view === "feed") startFirstPage(route.terms);
