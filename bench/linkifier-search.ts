/**
 * One linkifier search on a long message: CPU time of the first search with a freshly compiled
 * pattern and of the searches after it, for a pattern near the engine's size cap and for a
 * plain one (`#(?P<id>[0-9]+)`, the baseline), on text where nothing matches (the whole text is
 * scanned). The engine (re2js) builds the states of its lazy DFA as a search meets them, so the
 * first long search with a pattern pays for building them and the later ones reuse them; that first
 * search is what a render's linkifier budget (25 ms of CPU) must absorb.
 *
 *   npx vite-node bench/linkifier-search.ts [characters] [repeats]
 *
 * ROOKERY_BENCH_SHORT=1: 2,000 characters, 3 repeats.
 */
import { MAX_PROGRAM_SIZE, compileRe2 } from "../src/algorithms/re2/engine.js";
import { compileLinkifier } from "../src/lib/realm/linkifiers.js";
import { sized } from "./short.js";

const CHARACTERS = sized(process.argv[2], 10_000, 2_000);
const REPEATS = sized(process.argv[3], 15, 3);
const TEMPLATE = "https://example.com/{x}";

/** The largest `n` (up to 1,000, RE2's repeat limit) whose pattern the linkifier compiler still accepts. */
function nearCap(make: (n: number) => string): string {
  let low = 1;
  let high = 1000;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (compileLinkifier(make(mid), TEMPLATE) !== null) low = mid;
    else high = mid - 1;
  }
  return make(low);
}

function cpuMs(run: () => void): number {
  const started = process.cpuUsage();
  run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

const text = "lorem ipsum dolor sit amet, consectetur adipiscing elit ".repeat(Math.ceil(CHARACTERS / 56)).slice(0, CHARACTERS);
const patterns: [string, string][] = [
  ["plain #(?P<x>[0-9]+) (baseline)", "#(?P<x>[0-9]+)"],
  ["counted class, near the cap", nearCap((n) => `(?P<x>[a-z]{1,${n}}[0-9])`)],
  // A literal the text lacks ends the search early, however large the program.
  ["nested repeats then '#', near the cap", nearCap((n) => `(?P<x>(?:[a-z]+\\s?){1,${n}}#)`)],
];

console.log(`${CHARACTERS.toLocaleString("en")} characters, no match; CPU ms; program size cap ${MAX_PROGRAM_SIZE}`);
let baseline = 0;
for (const [name, pattern] of patterns) {
  const linkifier = compileLinkifier(pattern, TEMPLATE);
  const compiled = compileRe2(pattern);
  if (linkifier === null || !compiled.ok) throw new Error(`does not compile: ${name}`);
  const first = cpuMs(() => linkifier.find(text, 0));
  const later = Array.from({ length: REPEATS }, () => cpuMs(() => linkifier.find(text, 0))).sort((a, b) => a - b);
  const median = later[Math.floor(later.length / 2)] ?? 0;
  if (baseline === 0) baseline = Math.max(median, 0.001);
  console.log(
    `${name.padEnd(40)} size ${String(compiled.re.programSize()).padStart(4)}  first ${first.toFixed(1).padStart(6)}  later median ${median.toFixed(2).padStart(6)}  ` +
      `first/later ${(first / Math.max(median, 0.001)).toFixed(1)}x  later/baseline ${(median / baseline).toFixed(1)}x`,
  );
}
