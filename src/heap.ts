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
