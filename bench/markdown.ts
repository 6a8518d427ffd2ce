/**
 * Renderer throughput against plain markdown-it on the same messages, plus
 * pathological-input timings. Run: npx vite-node bench/markdown.ts
 * (ROOKERY_BENCH_SHORT=1: a 1-second comparison.)
 */
import markdownIt from "markdown-it";
import { renderMarkdown, type RenderContext } from "../src/markdown/index.js";
import { bigCode, codeMessages } from "./markdown-code.js";
import { SHORT } from "./short.js";

const users = ["Iago", "King Hamlet", "Cordelia Lear", "Othello", "Prospero"].map((fullName, i) => ({ id: i + 10, fullName }));
const ctx: RenderContext = {
  userByName: (name) => users.filter((u) => u.fullName.toLowerCase() === name.toLowerCase()),
  userById: (id) => users.find((u) => u.id === id),
  groupByName: (name) => (name === "backend" ? { id: 3, name } : undefined),
  channelByName: (name) => (["general", "design", "backend"].includes(name) ? { id: name.length, name } : undefined),
  // An organisation's default: image previews on.
  inlineImagePreview: true,
  realmUrl: "https://chat.example.com",
};

// Messages shaped like everyday chat: short text, mentions, links, code, emoji.
const corpus = [
  "Good morning everyone :wave:",
  "@**King Hamlet** can you take a look at https://github.com/example/repo/pull/1234 when you get a chance?",
  "Deploy finished :tada: see #**general>deploys** for details",
  "I think the problem is in `parse_headers()` — it doesn't handle **empty** values.",
  "```python\ndef retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except IOError:\n            pass\n```",
  "> the build is red again\n\nyes, fixed in [this commit](https://git.example.com/c/abc123) :+1:",
  "Agenda for today:\n* standup\n* design review with @*backend*\n* 1:1s",
  "lol :joy: that's amazing",
  "Meeting moved to <time:2024-05-01T15:00:00Z>, same room.",
  "@_**Iago** thanks! merged :rocket:",
  "Quick poll: should we use ~~tabs~~ spaces? :thinking:",
  "1. pull main\n2. run `npm ci`\n3. run the tests\n4. ping @**Othello** if anything fails",
  "Here is the error:\n```\nTypeError: Cannot read properties of undefined (reading 'id')\n    at render (app.js:42:7)\n```",
  "$$e^{i\\pi} + 1 = 0$$ is still the nicest formula",
  "| env | status |\n|-----|--------|\n| staging | :check: |\n| prod | pending |",
  "ok",
  "sounds good, ship it",
  "Has anyone seen www.example.org/status today? It's down for me 😞",
  // Code in the highlighted languages, about one message in three.
  ...codeMessages,
];

interface Rate {
  wall: number; // messages per wall-clock second
  cpu: number; // messages per second of this process's CPU time
}

// Renders the corpus repeatedly for `ms` milliseconds; returns messages, wall ms and CPU ms.
function slice(render: (s: string) => unknown, ms: number): [number, number, number] {
  let count = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (const message of corpus) render(message);
    count += corpus.length;
  }
  const cpu = process.cpuUsage(cpuStart);
  return [count, performance.now() - start, (cpu.user + cpu.system) / 1000];
}

// The two renderers take turns in short slices, so a busy machine slows both alike.
function compare(seconds: number): [Rate, Rate] {
  const totals = [
    [0, 0, 0],
    [0, 0, 0],
  ];
  const renderers = [ours, baseline];
  for (let round = 0; round < seconds * 5; round++) {
    renderers.forEach((render, i) => {
      const [n, wall, cpu] = slice(render, 100);
      const t = totals[i] ?? [0, 0, 0];
      totals[i] = [(t[0] ?? 0) + n, (t[1] ?? 0) + wall, (t[2] ?? 0) + cpu];
    });
  }
  const rate = (t: number[] | undefined): Rate => ({
    wall: ((t?.[0] ?? 0) / (t?.[1] ?? 1)) * 1000,
    cpu: ((t?.[0] ?? 0) / (t?.[2] ?? 1)) * 1000,
  });
  return [rate(totals[0]), rate(totals[1])];
}

const plain = markdownIt();
const ours = (s: string) => renderMarkdown(s, ctx);
const baseline = (s: string) => plain.render(s);
compare(1); // warm-up, so the JIT has compiled both
const [oursRate, baseRate] = compare(SHORT ? 1 : 6);
const fmt = (n: number) => Math.round(n).toLocaleString("en").padStart(8);
console.log(`corpus: ${corpus.length} messages; each renderer ran 3 s in alternating 100 ms slices`);
console.log(`                      wall-clock msg/s   per CPU-second msg/s`);
console.log(`rookery renderer:     ${fmt(oursRate.wall)}           ${fmt(oursRate.cpu)}`);
console.log(`markdown-it default:  ${fmt(baseRate.wall)}           ${fmt(baseRate.cpu)}`);
console.log(`ratio (ours/baseline): ${(oursRate.wall / baseRate.wall).toFixed(2)}  (target: >= 20,000 messages/s on one core)`);

// Whole source files in one code block: highlighting's cost, against markdown-it's plain render
// (no highlighting) of the same input.
console.log("\n64 KB code blocks, highlighted (best of 10 wall-clock, target <= 20 ms):");
for (const [name, input] of bigCode) {
  const best = (render: (s: string) => unknown): number => {
    let fastest = Infinity;
    for (let i = 0; i < (SHORT ? 3 : 10); i++) {
      const start = performance.now();
      render(input);
      fastest = Math.min(fastest, performance.now() - start);
    }
    return fastest;
  };
  ours(input);
  const oursMs = best(ours);
  const baseMs = best(baseline);
  const over = oursMs > 20 ? "  OVER TARGET" : "";
  console.log(`  ${name.padEnd(8)} rookery ${oursMs.toFixed(2)} ms   markdown-it ${baseMs.toFixed(2)} ms   ratio ${(oursMs / baseMs).toFixed(1)}${over}`);
}

const pathological: Record<string, string> = {
  "10,000 nested brackets": "[".repeat(10_000) + "]".repeat(10_000),
  "10,000 open brackets": "[".repeat(10_000),
  "10,000 asterisks": "*".repeat(10_000),
  "10,000 backticks": "`".repeat(10_000),
  "10,000 '>'": ">".repeat(10_000) + " deep",
  "10,000 parentheses around a URL": "(".repeat(10_000) + "http://a.com/" + ")".repeat(10_000),
  "10,000 '$'": "$".repeat(10_000),
  "10,000 '~'": "~".repeat(10_000),
  "5,000 '@**'": "@**".repeat(5_000),
  "3,000 'am' in a global time": `<time:10:00 ${"am ".repeat(3_000)}>`,
  "5,000 numbers in a global time": `<time:${"1 ".repeat(5_000)}>`,
};
console.log("\npathological inputs (best of 5, target <= 50 ms):");
for (const [name, input] of Object.entries(pathological)) {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    renderMarkdown(input, ctx);
    best = Math.min(best, performance.now() - start);
  }
  console.log(`  ${name.padEnd(34)} ${best.toFixed(2)} ms${best > 50 ? "  OVER TARGET" : ""}`);
}
