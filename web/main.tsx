/**
 * The browser app's entry. When boot.ts is drawing the open narrow's first list (views/first-draw.ts),
 * the app's code runs only once that list is painted: fetching and evaluating it meanwhile would
 * hold the first draw back. A first page that never comes holds the app a while at most.
 */
import "./styles/app.css";

const FIRST_DRAW_WAIT_MS = 2000;

/** Fetches the chunks the page names (its rookery-chunks meta) together, rather than one wave of imports after another. */
function preloadChunks(): void {
  const names = document.querySelector<HTMLMetaElement>('meta[name="rookery-chunks"]')?.content.split(" ").filter(Boolean) ?? [];
  for (const name of names) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = `/static/${name}`;
    document.head.append(link);
  }
}

const boot = (globalThis as { rookeryFirstDraw?: { drawn: Promise<boolean> } }).rookeryFirstDraw;
const bootDrew = boot ? await Promise.race([boot.drawn, new Promise<false>((resolve) => setTimeout(() => resolve(false), FIRST_DRAW_WAIT_MS))]) : false;
preloadChunks();
const { start } = await import("./app-start.js");
start(bootDrew);
