import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import multipart from "@fastify/multipart";
import Fastify, { type FastifyInstance } from "fastify";
import pino, { type Logger } from "pino";
import { systemClock, type Clock } from "./base/clock.js";
import type { Config } from "./config.js";
import type { AppContext } from "./context.js";
import { openStore } from "./db/index.js";
import { localBus, type EventBus } from "./events/bus.js";
import { applyChanges } from "./caches/apply.js";
import { AlertWordCache } from "./caches/alert-words.js";
import { compileLinkifier } from "./lib/realm/linkifiers.js";
import { DurableQueues } from "./events/durable.js";
import { loadQueues, queueDumpFile } from "./events/persist.js";
import { QueueRegistry, type QueueTimings } from "./events/queues.js";
import { notFound } from "./base/errors.js";
import { BODY_LIMIT_MIB, clientErrorHandler, frameworkErrors, sendProtocolError } from "./http/protocol-errors.js";
import { registerEndpoints, sendError } from "./http/router.js";
import { clientAddress } from "./http/client-address.js";
import { leanEvents } from "./routes/events.js";
import { RateLimiter } from "./base/rate-limit.js";
import { multipartLimits, streamingBodies } from "./http/uploads.js";
import { ATTEMPT_RULES, AttemptLimiter } from "./base/attempts.js";
import { GroupCache } from "./caches/groups.js";
import { LinkifierCache } from "./caches/linkifiers.js";
import { RealmCache } from "./caches/realms.js";
import { UserCache } from "./caches/users.js";
import { SessionCache } from "./caches/sessions.js";
import { nextExportTime, runRequestedExports } from "./actions/exports.js";
import { createMailer } from "./mail.js";
import { DueTimer, everyInterval } from "./base/due-timer.js";
import { removeUnclaimedUploads, UNCLAIMED_UPLOAD_SWEEP_INTERVAL_MS } from "./actions/upload-cleanup.js";
import { deliverDueScheduledMessages } from "./actions/scheduled-delivery.js";
import { nextScheduledTime } from "./db/queries/scheduled-messages.js";
import { UrlSigner } from "./uploads/paths.js";
import { LocalFileStore } from "./uploads/storage.js";
import { ThumbnailQueue } from "./uploads/thumbnail-queue.js";
import { ImageProxy, IMAGE_PROXY_CONCURRENCY, IMAGE_PROXY_MAX_REDIRECTS, IMAGE_PROXY_MAX_WAITING, type Resolver } from "./uploads/image-proxy.js";
import { allEndpoints } from "./routes/index.js";
import { PresenceStore } from "./caches/presence.js";
import { registerEmailChangeRoutes } from "./routes/email-change.js";
import { registerEmojiDataRoute } from "./routes/emoji-data.js";
import { registerLoadingImageRoute } from "./routes/loading-image.js";
import { registerEmojiImageRoutes } from "./routes/realm-emoji.js";
import { registerHealthRoute, registerMetricsRoute } from "./routes/operations.js";
import { Metrics } from "./base/metrics.js";
import { WebAssets } from "./http/static-files.js";
import { registerFileRoutes } from "./routes/uploads.js";
import { registerAvatarRedirects, registerAvatarRoutes } from "./routes/avatars.js";
import { registerLoginRoutes } from "./routes/login.js";
import { registerPasswordResetRoutes } from "./routes/password-reset.js";
import { registerWebRoutes } from "./routes/web.js";
import { CONTENT_SECURITY_POLICY } from "./http/pages.js";
import { registerRealmBrandingRoutes } from "./routes/realm-branding.js";
import { registerExportFileRoutes } from "./routes/exports.js";
import { runThumbnailJob } from "./actions/thumbnails.js";
import { unthumbnailedImages } from "./db/queries/image-attachments.js";
import { registerSignupRoutes } from "./routes/signup.js";
import { deliverDueMail, mailTriesSettled } from "./actions/mail.js";
import { nextMailTime } from "./db/queries/outgoing-mail.js";
import { httpsServerFactory } from "./tls.js";
import { listenControlSocket, type ControlSocket } from "./events/relay.js";

/** What tests and the server may substitute. */
export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
  bus?: EventBus;
  /** Event-queue timings (tests shorten the heartbeat). */
  events?: QueueTimings;
  /** How the image proxy resolves host names (tests point names at loopback); the system's by default. */
  imageProxyResolver?: Resolver;
}

/** A built application: the Fastify instance (not listening) and its context. */
export interface App {
  http: FastifyInstance;
  ctx: AppContext;
  /** Tells the app the address it listens on (in a cluster, it becomes reachable by the other processes). */
  listening(address: string): Promise<void>;
  close(): Promise<void>;
}

/** The server's logger: JSON lines, or through pino-pretty (loaded only then) for a terminal. */
async function createLogger(config: Config): Promise<Logger> {
  if (config.logFormat === "json") return pino({ level: config.logLevel });
  const { default: pretty } = await import("pino-pretty");
  return pino({ level: config.logLevel }, pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" }));
}

/** Opens the database and builds the context the server and the CLI share. */
export async function createContext(config: Config, options: AppOptions = {}): Promise<AppContext> {
  const log = options.logger ?? (await createLogger(config));
  const store = await openStore(config.databaseUrl, (error) => log.warn({ err: error }, "idle database connection closed"));
  const clock = options.clock ?? systemClock;
  const queues = new QueueRegistry(clock, log, options.events);
  // Loaded only in cluster mode: one process never pays for the Redis client.
  const cluster = config.redisUrl === null ? undefined : await (await import("./cluster/cluster.js")).Cluster.start(config, log, queues, clock, store.db);
  if (cluster) queues.idOwner = cluster.processId;
  const inner = options.bus ?? cluster?.bus ?? localBus();
  // One server process keeps its queues through a crash in the database: once buildApp starts it,
  // every event reaches the queues through the event log. Not in a cluster (queues are handed over
  // through Redis) nor in the CLI (it relays its events to the server, which logs them).
  const durable = options.bus === undefined && !cluster ? new DurableQueues(store, queues, inner, clock, log) : undefined;
  const bus = durable?.bus ?? inner;
  const ctx: AppContext = {
    config,
    store,
    db: store.db,
    log,
    clock,
    bus,
    ...(durable ? { durable } : {}),
    users: new UserCache(store.db),
    realms: new RealmCache(store.db),
    sessions: new SessionCache(store.db),
    groups: new GroupCache(store.db),
    linkifiers: new LinkifierCache(store.db, compileLinkifier),
    alertWords: new AlertWordCache(store.db),
    presence: new PresenceStore({ store, db: store.db, log, cluster, deliver: (events) => (cluster ? cluster.keeper.deliver(events) : queues.deliver(events)) }),
    mailer: createMailer(config.smtpUrl, config.dataDir, config.emailFrom, log),
    queues,
    metrics: new Metrics({ queues: () => queues.size(), waitingPolls: () => queues.waitingPolls(), eventsDelivered: () => queues.delivered }),
    files: new LocalFileStore(path.join(config.dataDir, "uploads")),
    web: new WebAssets(config.webDir),
    thumbnails: new ThumbnailQueue(log),
    imageProxy: new ImageProxy({
      cacheDir: path.join(config.dataDir, "image-proxy"),
      cacheBytes: config.imageProxy.cacheMib * 1024 * 1024,
      maxBytes: config.imageProxy.maxMib * 1024 * 1024,
      timeoutMs: config.imageProxy.timeoutS * 1000,
      maxRedirects: IMAGE_PROXY_MAX_REDIRECTS,
      allowPrivate: config.imageProxy.allowPrivate,
      concurrency: IMAGE_PROXY_CONCURRENCY,
      maxWaiting: IMAGE_PROXY_MAX_WAITING,
      resolver: options.imageProxyResolver,
      log,
    }),
    urls: new UrlSigner(config.dataDir),
    limits: cluster?.limits ?? { authentication: new AttemptLimiter(ATTEMPT_RULES.authentication), emailChange: new AttemptLimiter(ATTEMPT_RULES.emailChange), passwordReset: new AttemptLimiter(ATTEMPT_RULES.passwordResetForm), spectatorFiles: new AttemptLimiter(ATTEMPT_RULES.spectatorAttachmentAccess, 1_000) },
    scheduledMessages: new DueTimer(clock, log, {
      next: () => nextScheduledTime(store.db),
      // In a cluster, only the holder of the jobs lease sends them.
      run: async (stopping) => {
        if (!cluster || cluster.jobs.held) await deliverDueScheduledMessages(ctx, stopping);
      },
    }),
    mail: new DueTimer(clock, log, {
      next: () => nextMailTime(store.db),
      // In a cluster, only the holder of the jobs lease tries mail again.
      run: async (stopping) => {
        if (!cluster || cluster.jobs.held) await deliverDueMail(ctx, stopping);
      },
    }),
    unclaimedUploads: new DueTimer(
      clock,
      log,
      // In a cluster, only the holder of the jobs lease sweeps.
      everyInterval(clock, UNCLAIMED_UPLOAD_SWEEP_INTERVAL_MS, async (stopping) => {
        if (!cluster || cluster.jobs.held) await removeUnclaimedUploads(ctx, clock.now(), stopping);
      }),
      // Looks at the clock hourly: a day's sleep would miss a clock that was moved on.
      3600_000,
    ),
    // In a cluster, only the holder of the jobs lease writes exports (actions/exports.ts).
    exports: new DueTimer(clock, log, { next: () => nextExportTime(ctx), run: (stopping) => runRequestedExports(ctx, stopping) }),
    cluster,
  };
  return ctx;
}

/** Builds the whole server on an open, migrated database; tests build the same thing. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<App> {
  const ctx = await createContext(config, options);
  const { log, store } = ctx;
  const bodyLimit = BODY_LIMIT_MIB * 1024 * 1024;
  const http = Fastify({
    logger: false,
    bodyLimit,
    ...requestTimeouts(config.bodyTimeoutS),
    clientErrorHandler,
    frameworkErrors,
    // request.ip: the caller's address, from X-Forwarded-For only when a trusted proxy sent it (the
    // rightmost address that is not a trusted proxy; a caller's own entries to its left are ignored).
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    ...(config.tls ? { serverFactory: httpsServerFactory(config.tls) } : {}),
    // /users/{email}: an email address may be 254 characters.
    routerOptions: { maxParamLength: 320 },
  });
  http.removeAllContentTypeParsers();
  http.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  // Zulip reads parameters only from form bodies; any other body is ignored, not refused.
  http.addContentTypeParser("*", { parseAs: "buffer" }, (_req, _body, done) => done(null, {}));
  http.setErrorHandler((error, request, reply) => sendError(error, request, reply, log));
  http.setNotFoundHandler((request, reply) => sendProtocolError(request.url, reply, notFound("Not Found")));
  // Every HTML page (the app, the login pages, file errors) allows nothing from another origin and no inline script.
  http.addHook("onSend", (_request, reply, payload, done) => {
    if (String(reply.getHeader("content-type") ?? "").startsWith("text/html") && !reply.hasHeader("content-security-policy")) {
      reply.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    }
    done(null, payload);
  });
  const logRequests = log.isLevelEnabled("info");
  const recordRequest = (method: string, route: string | undefined, url: string, status: number, ms: number, user: number | undefined, address: () => string | undefined) => {
    // The route's pattern, not the URL: unknown URLs count as one route, so labels stay bounded.
    ctx.metrics.request(method, route ?? "(unmatched)", status, ms / 1000);
    if (!logRequests) return;
    const line = { method, route: route ?? url, status, ms: Math.round(ms * 10) / 10, user, address: address() };
    // A load balancer checks every few seconds: those lines would drown the others.
    if (route === "/health" && status === 200) log.debug(line, "request");
    else log.info(line, "request");
  };
  http.addHook("onResponse", (request, reply, done) => {
    recordRequest(request.method, request.routeOptions.url, request.url, reply.statusCode, reply.elapsedTime, request.userId, () => request.ip);
    done();
  });
  // Long-polls on this process's queues are served before the framework's routing (routes/events.ts).
  const callerAddress = clientAddress(config.trustedProxies);
  const lean = leanEvents(ctx, (req, route, status, startedAt, userId) =>
    recordRequest("GET", route, req.url ?? "", status, performance.now() - startedAt, userId, () => callerAddress(req)),
  );
  const [framework, ...others] = http.server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (!framework || others.length > 0) throw new Error("the HTTP server should have the framework's one request listener");
  http.server.removeListener("request", framework);
  http.server.on("request", function (this: unknown, req: IncomingMessage, res: ServerResponse) {
    if (!lean(req, res)) framework.call(this, req, res);
  });
  // Multipart bodies (zulip-js sends them, uploads need them) only where a body can come: its
  // hooks would otherwise run on every GET as well. The router reads them after authentication.
  // Uploads read their multipart body themselves, after authentication, straight to storage.
  const { instance: streaming } = await streamingBodies(http);
  await http.register(async (withBodies) => {
    await withBodies.register(multipart, { limits: multipartLimits(bodyLimit) });
    const limiters = ctx.cluster?.limits ?? { byUser: new RateLimiter(config.rateLimitPerMinute), byAddress: new RateLimiter(config.anonRateLimitPerMinute) };
    registerEndpoints({ plain: http, withBodies, streaming }, ctx, limiters, allEndpoints);
  });
  registerSignupRoutes(http, ctx);
  registerEmailChangeRoutes(http, ctx);
  registerEmojiImageRoutes(http, ctx);
  registerFileRoutes(http, ctx);
  registerAvatarRoutes(http, ctx);
  registerAvatarRedirects(http, ctx);
  registerLoginRoutes(http, ctx);
  registerPasswordResetRoutes(http, ctx);
  registerWebRoutes(http, ctx);
  registerRealmBrandingRoutes(http, ctx);
  registerExportFileRoutes(http, ctx);
  registerHealthRoute(http, ctx);
  registerMetricsRoute(http, ctx);
  registerEmojiDataRoute(http);
  registerLoadingImageRoute(http);
  // Queues saved by the previous process come back before the first request can ask for them (in
  // a cluster, queues are handed over through Redis instead).
  if (ctx.durable) {
    await ctx.durable.start();
    // A dump written by an earlier version of the server: its queues are written to the database at once.
    if (loadQueues(queueDumpFile(config.dataDir), ctx.queues, log) > 0) await ctx.durable.checkpoint();
  }
  ctx.bus.subscribe((commit) => applyChanges(ctx, commit.changes));
  ctx.bus.subscribe((commit) => ctx.users.observe(commit.events));
  ctx.bus.subscribe((commit) => ctx.groups.observe(commit.events));
  // An export requested in any process wakes the export job (which runs where the jobs lease is).
  ctx.bus.subscribe((commit) => {
    if (commit.events.some((queued) => queued.event.type === "realm_export")) ctx.exports.wake(ctx.clock.now());
  });
  ctx.queues.start(ctx.bus);
  // In a cluster, queues outlive their process being killed (cluster/queue-keeper.ts).
  ctx.cluster?.keeper.start();
  // Messages that fell due while the server was down go out now.
  ctx.scheduledMessages.start();
  // Mail queued before a restart, or whose retry fell due while the server was down, goes now.
  ctx.mail.start();
  ctx.unclaimedUploads.start();
  ctx.exports.start();
  ctx.thumbnails.start((imageId) => runThumbnailJob(ctx, imageId));
  // Images uploaded before a restart whose thumbnails were never made (in a cluster, the holder of
  // the jobs lease looks, each time it takes the lease).
  const backlog = async () => {
    for (const image of await unthumbnailedImages(ctx.db)) ctx.thumbnails.enqueue(image.id);
  };
  if (ctx.cluster) {
    const { jobs } = ctx.cluster;
    jobs.onTaken = () => {
      void ctx.scheduledMessages.runDue();
      void ctx.mail.runDue();
      void ctx.exports.runDue();
      backlog().catch((error: unknown) => log.error({ err: error }, "thumbnail backlog failed"));
    };
    await jobs.start();
  } else {
    await backlog();
  }
  let control: ControlSocket | undefined;
  return {
    http,
    ctx,
    async listening(address: string) {
      if (ctx.cluster) return ctx.cluster.join(config.internalUrl ?? internalAddress(address));
      // The rookery command hands its changes over here (in a cluster, through the shared stream).
      control = await listenControlSocket(config.dataDir, (commit) => ctx.bus.publish(commit), log);
    },
    async close() {
      if (ctx.cluster) return closeClusterMember(http, ctx);
      await control?.close();
      // A delivery under way finishes its batch (its events reach the queues saved below).
      await stopTimedWork(ctx);
      // Every queue is written as it is now (events committed after this are in the event log,
      // replayed at the next start); then waiting polls are answered, so closing the server does
      // not wait on them.
      ctx.durable?.stop();
      const saved = ctx.durable?.checkpoint();
      ctx.queues.stop();
      await ctx.thumbnails.stop();
      await saved;
      // A connection still sending its last answer (a file streaming out) is not idle when closing
      // starts; it is closed as soon as it is, not after the 72 s keep-alive.
      await closeHttp(http);
      await ctx.presence.flush();
      await store.close();
    },
  };
}

/**
 * Stops every timer-driven job (scheduled messages, mail, unclaimed uploads, exports), each after
 * its run under way, and waits for mail tries under way: the first step of any clean stop.
 */
async function stopTimedWork(ctx: AppContext): Promise<void> {
  await ctx.scheduledMessages.stop();
  await ctx.mail.stop();
  await mailTriesSettled(ctx);
  await ctx.unclaimedUploads.stop();
  await ctx.exports.stop();
}

/** The address other processes reach a listener at: a wildcard host becomes the loopback. */
function internalAddress(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === "0.0.0.0" || url.hostname === "[::]") url.hostname = "127.0.0.1";
  return url.origin;
}

/**
 * A clean stop of one process of a cluster: polls are answered at once while the server closes
 * (events still reach the queues), then the queues are handed over through Redis, so their clients
 * continue on another process without registering again.
 */
async function closeClusterMember(http: FastifyInstance, ctx: AppContext): Promise<void> {
  await stopTimedWork(ctx);
  ctx.queues.answerWaiting();
  await ctx.thumbnails.stop();
  await closeHttp(http);
  // Reading stops before the queues stop taking events: the handover says how far they go.
  await ctx.cluster?.bus.stop();
  ctx.queues.stop();
  await ctx.cluster?.stop(() => ctx.queues.save());
  await ctx.presence.flush();
  await ctx.store.close();
}

/** Closes the server; a connection still sending its last answer is closed as soon as it is idle. */
async function closeHttp(http: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => http.server.closeIdleConnections(), 50);
  try {
    await http.close();
  } finally {
    clearInterval(sweep);
  }
}

/**
 * Node's limit on the time to receive one request (headers and body), checked every second; a
 * client that has not finished in time gets 408 and loses its connection. A request without a
 * body is whole once its headers are in, so a long-poll's wait for events is not counted. The
 * headers keep Node's 60 s limit, or the whole request's if that is shorter.
 */
function requestTimeouts(seconds: number): { requestTimeout: number; http: { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number } } {
  const ms = seconds * 1000;
  const headersTimeout = ms === 0 ? 60_000 : Math.min(60_000, ms);
  return { requestTimeout: ms, http: { requestTimeout: ms, headersTimeout, connectionsCheckingInterval: 1000 } };
}
