/**
 * Reads against the 1,000,000-message database of bench/messages-generate.ts, over real HTTP:
 * POST /messages/flags/narrow marking 1,000 messages read, GET /messages with a channel+topic
 * narrow and with a channel narrow (its newest, and at the first unread), and full-text search (a
 * common word, a word in 0.1% of messages, and a word in none). Prints medians next to GET
 * /users/me measured in the same run as the baseline.
 *
 *   npx vite-node bench/messages-generate.ts && npx vite-node bench/messages-read.ts [file] [runs]
 *
 * ROOKERY_BENCH_SHORT=1: 3 runs each, on the short database of messages-generate.
 */
import path from "node:path";
import pino from "pino";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { basicAuth } from "./auth.js";
import { runUnderServerFlags } from "./server-flags.js";
import { MESSAGES_FILE, sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

const FILE = process.argv[2] ?? MESSAGES_FILE;
const RUNS = sized(process.argv[3], 30, 3);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const config = { ...loadConfig({}), dataDir: path.dirname(FILE), databaseUrl: `sqlite:${FILE}`, logLevel: "warn", rateLimitPerMinute: 0 };
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  const base = `${await app.http.listen({ host: "127.0.0.1", port: 0 })}/api/v1`;
  const hamlet = await app.ctx.db.selectFrom("user").selectAll().where("delivery_email", "=", "hamlet@zulip.com").executeTakeFirstOrThrow();
  const auth = basicAuth(hamlet.delivery_email, hamlet.api_key);
  const call = async (method: string, p: string, params: Record<string, string>): Promise<{ ms: number; body: Record<string, unknown> }> => {
    const qs = new URLSearchParams(params).toString();
    const t0 = performance.now();
    const res =
      method === "GET"
        ? await fetch(`${base}${p}?${qs}`, { headers: { authorization: auth } })
        : await fetch(`${base}${p}`, { method, headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" }, body: qs });
    const body = (await res.json()) as Record<string, unknown>;
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${p}: ${JSON.stringify(body)}`);
    return { ms, body };
  };
  const measure = async (label: string, target: number | null, run: (i: number) => Promise<{ ms: number; body: Record<string, unknown> }>, check?: (b: Record<string, unknown>) => string) => {
    await run(-1);
    const times: number[] = [];
    let note = "";
    for (let i = 0; i < RUNS; i++) {
      const r = await run(i);
      times.push(r.ms);
      if (check) note = check(r.body);
    }
    const m = median(times);
    const verdict = target === null ? "" : m <= target ? `  (target ≤ ${target} ms: met)` : `  (target ≤ ${target} ms: MISSED)`;
    console.log(`${label.padEnd(52)} median ${m.toFixed(2)} ms${verdict}${note ? `  ${note}` : ""}`);
    return m;
  };

  const baseline = await measure("GET /users/me (baseline)", null, () => call("GET", "/users/me", {}));
  const channel = await app.ctx.db.selectFrom("stream").select("id").where("name", "=", "channel3").executeTakeFirstOrThrow();
  const flags = await measure(
    "POST /messages/flags/narrow (1,000 marked read)",
    15,
    () =>
      call("POST", "/messages/flags/narrow", {
        anchor: "oldest",
        num_before: "0",
        num_after: "999",
        narrow: JSON.stringify([{ operator: "is", operand: "unread" }]),
        op: "add",
        flag: "read",
      }),
    (b) => `updated ${String(b.updated_count)}`,
  );
  const topic = await measure("GET /messages channel+topic (50 newest)", 10, () =>
    call("GET", "/messages", {
      anchor: "newest",
      num_before: "50",
      num_after: "0",
      narrow: JSON.stringify([
        { operator: "channel", operand: channel.id },
        { operator: "topic", operand: "topic 42" },
      ]),
    }),
  );
  const inChannel = [{ operator: "channel", operand: channel.id }];
  const wholeChannel = await measure("GET /messages channel (50 newest)", 10, () =>
    call("GET", "/messages", { anchor: "newest", num_before: "50", num_after: "0", narrow: JSON.stringify(inChannel) }),
  );
  const channelUnread = await measure("GET /messages channel at first_unread (25 each side)", 10, () =>
    call("GET", "/messages", { anchor: "first_unread", num_before: "25", num_after: "25", narrow: JSON.stringify(inChannel) }),
  );
  const common = await measure("GET /messages search common word (50 newest)", 100, () =>
    call("GET", "/messages", { anchor: "newest", num_before: "50", num_after: "0", narrow: JSON.stringify([{ operator: "search", operand: "foxtrot" }]) }),
  );
  const rare = await measure("GET /messages search rare word, 1,000 hits (50 newest)", 100, () =>
    call("GET", "/messages", { anchor: "newest", num_before: "50", num_after: "0", narrow: JSON.stringify([{ operator: "search", operand: "zanzibar" }]) }),
  );
  const absent = await measure("GET /messages search absent word, no hits (50 newest)", 100, () =>
    call("GET", "/messages", { anchor: "newest", num_before: "50", num_after: "0", narrow: JSON.stringify([{ operator: "search", operand: "xylophone" }]) }),
  );
  console.log(
    `ratios to baseline: flags/narrow ${(flags / baseline).toFixed(1)}×, channel+topic ${(topic / baseline).toFixed(1)}×, channel ${(wholeChannel / baseline).toFixed(1)}× / at first unread ${(channelUnread / baseline).toFixed(1)}×, search ${(common / baseline).toFixed(1)}× / ${(rare / baseline).toFixed(1)}× / ${(absent / baseline).toFixed(1)}×`,
  );
  await app.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
