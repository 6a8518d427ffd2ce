import v8 from "node:v8";

/*
 * Loading the code, running migrations and warming the caches make much short-lived garbage, and
 * V8 answers it by growing the young generation to its full size, which an idle server then keeps
 * for good (7–10 MB of its resident memory). The `rookery` command imports this module before
 * anything else, so growth is held off while the process starts; the server allows it again once
 * it listens, and from then on only real traffic grows it.
 */
v8.setFlagsFromString("--semi-space-growth-factor=1");

/** Lets the young generation grow again, by V8's default factor. */
export function allowYoungGenerationGrowth(): void {
  v8.setFlagsFromString("--semi-space-growth-factor=2");
}

/** Requests between collections below which a quiet spell is not worth a collection. */
const BURST_REQUESTS = 2000;

/**
 * After a burst of traffic V8 keeps the heap it grew to, and with the memory reducer off for
 * small heaps (see main.ts) nothing collects the old generation while the server is quiet: the
 * burst's garbage stays resident until the next burst. Once a second passes with no request
 * answered after at least BURST_REQUESTS, this runs one full collection, off the request path.
 * Needs `--expose-gc` (the `rookery` command's flags); without it, does nothing.
 */
export function collectAfterBursts(answered: () => number, gc = (globalThis as { gc?: () => void }).gc): () => void {
  if (gc === undefined) return () => {};
  let seen = answered();
  let collectedAt = seen;
  const timer = setInterval(() => {
    const now = answered();
    if (now === seen && now - collectedAt >= BURST_REQUESTS) {
      gc();
      collectedAt = now;
    }
    seen = now;
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
