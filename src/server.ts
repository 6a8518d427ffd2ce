import { buildApp, type App } from "./app.js";
import type { Config } from "./config.js";
import { defaultRealm } from "./db/queries/realms.js";
import { createRealm } from "./actions/realms.js";
import { randomToken } from "./base/secrets.js";
import { isWorker, listenInternal, workerReady } from "./cluster/workers.js";
import { lockDataDir } from "./data-lock.js";
import { reloadCertificate } from "./tls.js";

/**
 * Connections the kernel may hold for the server to accept (it caps this at net.core.somaxconn).
 * Node's default, 511, overflows when a thousand clients connect at once (after a restart, or a
 * load balancer's failover): the dropped ones wait for TCP to retry, a second or more.
 */
const ACCEPT_QUEUE = 4096;

/**
 * How long a clean stop may take. Past it (requests still queued behind the database, a job that
 * does not finish) the process saves its event queues as they are and exits anyway, so a
 * supervisor's SIGTERM is always obeyed well before its own SIGKILL (systemd's default: 90 s;
 * Docker's: 10 s).
 */
export const SHUTDOWN_LIMIT_MS = 5_000;

/** Starts the server: builds the app, creates the first organisation on an empty database, listens. */
export async function serve(config: Config): Promise<App> {
  // One server per data folder; the processes of a cluster share theirs on purpose.
  const lock = config.redisUrl === null ? lockDataDir(config.dataDir) : undefined;
  const app = await buildApp(config);
  const firstRun = !(await defaultRealm(app.ctx.db));
  let welcome = "";
  if (firstRun) {
    const password = randomToken(16);
    const email = "owner@rookery.local";
    const { owner } = await createRealm(app.ctx, { name: "Rookery", stringId: "", ownerEmail: email, ownerName: "Owner", password });
    welcome = firstRunText(config.externalUrl, email, password, owner.api_key);
  }
  let closing = false;
  const stopNow = (signal: string, reason: string) => {
    app.ctx.log.warn({ signal }, reason);
    // One process's queues are already in the database (its event log and registrations), as
    // after a crash; a cluster member that cannot hand them over in time loses them, as if killed
    // (clients register again).
    lock?.release();
    process.exit(1);
  };
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.ctx.log.info({ signal }, "shutting down");
    setTimeout(() => stopNow(signal, `shutdown took over ${SHUTDOWN_LIMIT_MS / 1000} s: stopping now`), SHUTDOWN_LIMIT_MS);
    app.close().then(
      () => {
        lock?.release();
        process.exit(0);
      },
      (error: unknown) => {
        app.ctx.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  // Before the ready line: a supervisor may signal as soon as it reads it.
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  const tls = config.tls;
  // A renewed certificate is served without a restart (as nginx and HAProxy reload theirs).
  if (tls) process.on("SIGHUP", () => reloadCertificate(app.http.server, tls, app.ctx.log));
  const address = await app.http.listen({ host: config.host, port: config.port, backlog: ACCEPT_QUEUE });
  if (isWorker()) {
    // The shared port reaches any worker: forwarded requests come to an address of this worker's own.
    await app.listening(config.internalUrl ?? (await listenInternal(app.http)));
    process.stdout.write(welcome);
    workerReady();
    return app;
  }
  await app.listening(address);
  process.stdout.write(welcome + `Rookery is serving ${config.externalUrl}\n`);
  return app;
}

function firstRunText(url: string, email: string, password: string, apiKey: string): string {
  return [
    "Created the organisation and its owner. This is shown once:",
    `  URL:      ${url}`,
    `  Log in:   ${url}/login/  (in a browser, with this email and password)`,
    `  Email:    ${email}`,
    `  Password: ${password}`,
    `  API key:  ${apiKey}`,
    "",
    "A zuliprc for Zulip's clients and bots:",
    "[api]",
    `email=${email}`,
    `key=${apiKey}`,
    `site=${url}`,
    "",
    "It has the channels #general and #core team, and the Welcome Bot has written to you. Say hello:",
    `  curl -sS -u '${email}:${apiKey}' ${url}/api/v1/messages \\`,
    "    --data-urlencode type=stream --data-urlencode to=general \\",
    "    --data-urlencode topic=hello --data-urlencode 'content=Hello, world!'",
    "",
    "",
  ].join("\n");
}
