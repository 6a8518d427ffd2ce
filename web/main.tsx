/**
 * The browser app's entry. When boot.ts is drawing the open narrow's first list (views/first-draw.ts),
 * the app's code (fetched alongside, modulepreload) runs only once that list is painted: evaluating
 * it meanwhile would hold the first draw back. A first page that never comes holds the app a while
 * at most.
 */
import "./styles/app.css";

const FIRST_DRAW_WAIT_MS = 2000;
const boot = (globalThis as { rookeryFirstDraw?: { drawn: Promise<boolean> } }).rookeryFirstDraw;
const bootDrew = boot ? await Promise.race([boot.drawn, new Promise<false>((resolve) => setTimeout(() => resolve(false), FIRST_DRAW_WAIT_MS))]) : false;
const { start } = await import("./app-start.js");
start(bootDrew);
