import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { buildApp, type App } from "../../src/app.js";
import { createRealm } from "../../src/actions/realms.js";
import { checkCreateUser } from "../../src/actions/users.js";
import type { Clock } from "../../src/base/clock.js";
import { loadConfig, type Config } from "../../src/config.js";
import type { Store } from "../../src/db/index.js";
import type { UserRow } from "../../src/db/queries/users.js";
import type { EventQueue } from "../../src/events/queue.js";
import { Role } from "../../src/lib/users/roles.js";
import { Client } from "./client.js";
import { freshPostgres } from "./postgres.js";
import { startCluster } from "./cluster.js";

/** The named fixture users every test server has. */
export const FIXTURE_USERS = {
  desdemona: { email: "desdemona@zulip.com", name: "Desdemona", role: Role.OWNER },
  iago: { email: "iago@zulip.com", name: "Iago", role: Role.ADMINISTRATOR },
  shiva: { email: "shiva@zulip.com", name: "Shiva", role: Role.MODERATOR },
  hamlet: { email: "hamlet@zulip.com", name: "King Hamlet", role: Role.MEMBER },
  othello: { email: "othello@zulip.com", name: "Othello, the Moor of Venice", role: Role.MEMBER },
  cordelia: { email: "cordelia@zulip.com", name: "Cordelia, Lear's daughter", role: Role.MEMBER },
  polonius: { email: "polonius@zulip.com", name: "Polonius", role: Role.GUEST },
} as const;

/** Fixture names: the humans above plus `bot` (a generic bot owned by hamlet). */
export type FixtureName = keyof typeof FIXTURE_USERS | "bot";

/** A test clock: starts at a fixed instant and moves only when told. */
export class TestClock implements Clock {
  constructor(private ms = Date.UTC(2024, 4, 1, 12, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/** A running test server: real HTTP on 127.0.0.1, a fresh database, fixture users. */
export interface TestServer {
  app: App;
  /** Every process serving `url`: `[app]`, or the three of a cluster (the first is `app`). */
  apps: App[];
  url: string;
  /** The address of one process itself: `url`, or in a cluster the first process, not the balancer (for what one process's HTTP layer does with a connection). */
  processUrl: string;
  clock: TestClock;
  dataDir: string;
  users: Record<FixtureName, UserRow>;
  /** The password every fixture human has. */
  password: string;
  /** A client authenticated as a fixture user (or any user row). */
  as(who: FixtureName | UserRow): Client;
  /** A client with no credentials. */
  anonymous(): Client;
  stop(): Promise<void>;
}

/** Whether the suites run on a cluster of three processes behind a round-robin proxy (ROOKERY_TEST_CLUSTER=1). */
export const clusterMode = process.env.ROOKERY_TEST_CLUSTER === "1";

/** A test server's configuration: loopback on a free port, quiet, no rate limits. */
export function testConfig(dataDir: string, databaseUrl: string, overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), host: "127.0.0.1", port: 0, dataDir, databaseUrl, logLevel: "silent", rateLimitPerMinute: 0, anonRateLimitPerMinute: 0, ...overrides };
}

/** Which backend the suite runs on: ROOKERY_TEST_DB=postgres uses ROOKERY_TEST_PG_URL. */
export function testBackend(): "sqlite" | "postgres" {
  return process.env.ROOKERY_TEST_DB === "postgres" ? "postgres" : "sqlite";
}

/**
 * Starts a server on a fresh database with the fixture organisation. With ROOKERY_TEST_CLUSTER=1
 * (and the PostgreSQL and Redis of the cluster tests) it is three processes behind a round-robin
 * proxy: `url` is the proxy's, `app` the first process (which holds the jobs lease).
 */
export async function startServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  if (clusterMode) return startClusterServer(overrides);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-test-"));
  const { url: databaseUrl, drop } = await freshDatabase(dataDir);
  const config = testConfig(dataDir, databaseUrl, overrides);
  const clock = new TestClock();
  const app = await buildApp(config, { clock, logger: pino({ level: process.env.ROOKERY_TEST_LOG ?? "silent" }) });
  const address = await app.http.listen({ host: "127.0.0.1", port: 0 });
  await app.listening(address);
  const { users, password } = await createFixtures(app);
  const server: TestServer = {
    app,
    apps: [app],
    url: address,
    processUrl: address,
    clock,
    dataDir,
    users,
    password,
    as: (who) => {
      const user = typeof who === "string" ? server.users[who] : who;
      return new Client(address, { email: user.delivery_email, apiKey: user.api_key });
    },
    anonymous: () => new Client(address, undefined),
    async stop() {
      await app.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** Creates the fixture organisation (named users, the bot) through `app`; every fixture human has `password`. */
export async function createFixtures(app: App): Promise<{ users: Record<FixtureName, UserRow>; password: string }> {
  const password = "test-password-123";
  const { owner } = await createRealm(app.ctx, {
    name: "Zulip Dev",
    stringId: "",
    ownerEmail: FIXTURE_USERS.desdemona.email,
    ownerName: FIXTURE_USERS.desdemona.name,
    password,
    // Zulip's test organisation is built from fixture data: no Welcome Bot messages, no welcomes.
    initialContent: false,
  });
  const users = { desdemona: owner } as Record<FixtureName, UserRow>;
  for (const [name, spec] of Object.entries(FIXTURE_USERS)) {
    if (name === "desdemona") continue;
    users[name as FixtureName] = await checkCreateUser(app.ctx, {
      realmId: owner.realm_id,
      email: spec.email,
      fullName: spec.name,
      password,
      role: spec.role,
      welcome: false,
    });
  }
  users.bot = await checkCreateUser(app.ctx, {
    realmId: owner.realm_id,
    email: "default-bot@zulip.com",
    fullName: "Hamlet's bot",
    password: null,
    role: Role.MEMBER,
    bot: { type: 1, ownerId: users.hamlet.id },
  });
  return { users, password };
}

/** A database for one test file: a SQLite file in `dataDir`, or a new PostgreSQL database. */
export async function freshDatabase(dataDir: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (testBackend() === "sqlite") return { url: `sqlite:${path.join(dataDir, "test.sqlite3")}`, drop: async () => {} };
  return freshPostgres(process.env.ROOKERY_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
}

/** The suites' TestServer as a cluster of three processes behind the round-robin proxy. */
async function startClusterServer(overrides: Partial<Config>): Promise<TestServer> {
  const cluster = await startCluster(3, overrides);
  const first = cluster.apps[0]!;
  // Tests write to the database directly (realm settings…) and drop the first process's cache
  // entry; a write through the test's handle makes every process drop its caches instead.
  const store: Store = {
    ...first.ctx.store,
    write: async (fn) => {
      const result = await first.ctx.store.write(fn);
      await first.ctx.bus.publish({ events: [], changes: [{ cache: "all" }] });
      return result;
    },
  };
  const app = { ...first, ctx: { ...first.ctx, store } };
  const server: TestServer = {
    app,
    apps: [app, ...cluster.apps.slice(1)],
    url: cluster.proxy.url,
    processUrl: cluster.urls[0]!,
    clock: cluster.clock,
    dataDir: cluster.dataDir,
    users: cluster.users,
    password: cluster.password,
    as: (who) => cluster.as(who),
    anonymous: () => new Client(cluster.proxy.url, undefined),
    stop: () => cluster.stop(),
  };
  return server;
}

/** The event queues of `userId` in every process of `server` (a cluster holds each queue in one). */
export function queuesOf(server: TestServer, userId: number): EventQueue[] {
  return server.apps.flatMap((app) => app.ctx.queues.ofUser(userId));
}

/** Resolves once `userId`'s queue `queueId` holds `count` events (in a cluster, events reach the holder a moment after the commit). */
export async function delivered(server: TestServer, userId: number, queueId: string, count: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((queuesOf(server, userId).find((q) => q.id === queueId)?.contents().length ?? 0) >= count) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`queue ${queueId} never held ${count} events`);
}
