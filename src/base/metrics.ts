import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** What the metrics read from the rest of the server when scraped. */
export interface MetricSources {
  /** Live event queues. */
  queues: () => number;
  /** Long-polls waiting for events. */
  waitingPolls: () => number;
  /** Events appended to queues since start. */
  eventsDelivered: () => number;
}

/**
 * The process's own metrics (CPU, memory, GC, event-loop delay), collected once per process:
 * prom-client watches them with a GC observer and an event-loop monitor that are never stopped, so
 * a registry of them per server would keep every closed server (its caches, its database handle)
 * alive for as long as the process, as tests and `rookery` commands that start more than one do.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: "rookery_" });
  }
  return processRegistry;
}

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60];

/**
 * The server's Prometheus metrics (prom-client): requests by endpoint and status, their latency,
 * write-transaction time, event queues, waiting long-polls and events delivered, and the
 * process's own (CPU, memory, event-loop delay).
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly processWide = processMetrics();
  private readonly requests: Counter<"method" | "route" | "status">;
  private readonly latency: Histogram<"method" | "route">;
  private readonly writes: Histogram;
  private readonly mails: Counter<"outcome">;
  /** Requests answered since start (a plain number, for the process's own idle-time housekeeping). */
  answered = 0;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.requests = new Counter({ name: "rookery_http_requests_total", help: "HTTP requests answered, by endpoint and status.", labelNames: ["method", "route", "status"], registers });
    this.latency = new Histogram({ name: "rookery_http_request_duration_seconds", help: "Time to answer an HTTP request, by endpoint (long-polls included).", labelNames: ["method", "route"], buckets: SECONDS, registers });
    this.writes = new Histogram({ name: "rookery_db_write_seconds", help: "Time from asking for a write transaction to its commit (waiting for the writer included).", buckets: SECONDS, registers });
    this.mails = new Counter({ name: "rookery_mail_attempts_total", help: "Tries to send a mail, by outcome: sent, deferred (tried again later), given_up (failed for a day).", labelNames: ["outcome"], registers });
    for (const outcome of ["sent", "deferred", "given_up"]) this.mails.labels(outcome).inc(0);
    new Gauge({ name: "rookery_event_queues", help: "Live event queues.", registers, collect: gaugeOf(sources.queues) });
    new Gauge({ name: "rookery_long_polls_waiting", help: "GET /events requests waiting for events.", registers, collect: gaugeOf(sources.waitingPolls) });
    new Counter({ name: "rookery_events_delivered_total", help: "Events appended to event queues.", registers, collect: counterOf(sources.eventsDelivered) });
  }

  /** Counts one answered request; `route` is the route's pattern, not the URL (bounded labels). */
  request(method: string, route: string, status: number, seconds: number): void {
    this.answered++;
    this.requests.labels(method, route, String(status)).inc();
    this.latency.labels(method, route).observe(seconds);
  }

  /** Records one write transaction's time. */
  write(seconds: number): void {
    this.writes.observe(seconds);
  }

  /** Counts one try to send a mail. */
  mail(outcome: "sent" | "deferred" | "given_up"): void {
    this.mails.labels(outcome).inc();
  }

  /** The exposition text and its content type. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    const [processText, serverText] = await Promise.all([this.processWide.metrics(), this.registry.metrics()]);
    return { text: processText + serverText, contentType: this.registry.contentType };
  }
}

/** A gauge's collect callback: the value `read` gives at scrape time. */
function gaugeOf(read: () => number) {
  return function (this: Gauge) {
    this.set(read());
  };
}

/** A counter's collect callback: what `read` (a running total) gained since the last scrape. */
function counterOf(read: () => number) {
  let seen = 0;
  return function (this: Counter) {
    const total = read();
    this.inc(total - seen);
    seen = total;
  };
}
