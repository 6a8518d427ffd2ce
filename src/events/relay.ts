/**
 * The CLI's changes reach a running server as if they had come through its API.
 *
 * Design: a server of one process listens on a unix socket in its data folder (control.sock,
 * mode 0600) and takes, from a caller that shows the key kept in secrets/control-key, the commits
 * the CLI made: their events and cache changes go to the server's bus as its own commits' do (its
 * queues, caches and timers apply them). The CLI writes to the database itself, then hands its
 * commit over and waits for the answer, so a client's next event poll already has it. With no
 * server running (no socket, or a stale one), the commit has nobody to reach and is dropped.
 *
 * In cluster mode the CLI needs none of this: it publishes on the cluster's Redis stream like any
 * other process of the cluster.
 */
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import { loadOrCreateKey } from "../base/secrets.js";
import type { EventBus } from "./bus.js";
import { parseCommitText, type Commit } from "./changes.js";

/** The largest commit the socket takes (a user added to an organisation of many users names them all). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** How long the CLI waits for the server to take its commit. */
const RELAY_TIMEOUT_MS = 10_000;
/** A unix socket's path must fit in sockaddr_un (108 bytes on Linux, 104 on others). */
const MAX_SOCKET_PATH_BYTES = 100;

/** The control socket of the server using `dataDir`. */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, "control.sock");
}

function controlKey(dataDir: string): Buffer {
  return Buffer.from(loadOrCreateKey(path.join(dataDir, "secrets", "control-key")).toString("hex"));
}

/** A listening control socket. */
export interface ControlSocket {
  close(): Promise<void>;
}

/**
 * Listens on the control socket of `dataDir` and hands every commit received to `publish`.
 * Undefined (with a warning) when the path is too long for a socket or another live server holds it.
 */
export async function listenControlSocket(dataDir: string, publish: (commit: Commit) => void | Promise<void>, log: Logger): Promise<ControlSocket | undefined> {
  const file = controlSocketPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH_BYTES) {
    log.warn({ file }, "the data folder's path is too long for the control socket: changes made with the rookery command reach connected clients only after a restart");
    return undefined;
  }
  if (await answers(file)) {
    log.warn({ file }, "another server answers on this data folder's control socket: changes made with the rookery command reach it, not this server");
    return undefined;
  }
  fs.rmSync(file, { force: true });
  const key = controlKey(dataDir);
  const server = http.createServer((request, response) => {
    handle(request, key, publish).then(
      (status) => response.writeHead(status).end(),
      (error: unknown) => {
        log.error({ err: error }, "control socket: applying a commit failed");
        response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(file, () => {
      server.off("error", reject);
      resolve();
    });
  });
  fs.chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(request: http.IncomingMessage, key: Buffer, publish: (commit: Commit) => void | Promise<void>): Promise<number> {
  if (request.method !== "POST" || request.url !== "/commit") return drained(request, 404);
  const given = Buffer.from(request.headers.authorization ?? "");
  const expected = Buffer.from(`Bearer ${key.toString()}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return drained(request, 401);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return 413;
    chunks.push(chunk);
  }
  const commit = parseCommitText(Buffer.concat(chunks).toString("utf8"));
  if (!commit) return 400;
  await publish(commit);
  return 204;
}

function drained(request: http.IncomingMessage, status: number): number {
  request.resume();
  return status;
}

/** Whether a live server listens on the socket `file`. */
function answers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(file);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * The CLI's bus: applies a commit to this process's listeners, then hands it to the server
 * running on `dataDir`, if any, and resolves once that server has applied it. `warn` hears of a
 * server that did not take it.
 */
export function relayBus(dataDir: string, warn: (message: string) => void): EventBus {
  const listeners = new Set<(commit: Commit) => void>();
  return {
    publish(commit) {
      if (commit.events.length === 0 && commit.changes.length === 0) return undefined;
      for (const listener of listeners) listener(commit);
      return relay(dataDir, commit).then(
        (problem) => {
          if (problem) warn(`the running server did not take this change (${problem}): its connected clients see it after the server restarts`);
        },
        () => undefined,
      );
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Sends `commit` to the control socket; resolves to a problem, or undefined when it was taken or no server runs. */
function relay(dataDir: string, commit: Commit): Promise<string | undefined> {
  const file = controlSocketPath(dataDir);
  if (!fs.existsSync(file)) return Promise.resolve(undefined);
  const body = Buffer.from(JSON.stringify(commit));
  return new Promise((resolve) => {
    const request = http.request(
      { socketPath: file, method: "POST", path: "/commit", timeout: RELAY_TIMEOUT_MS, headers: { authorization: `Bearer ${controlKey(dataDir).toString()}`, "content-type": "application/json", "content-length": body.length } },
      (response) => {
        response.resume();
        resolve(response.statusCode === 204 ? undefined : `status ${response.statusCode ?? "none"}`);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer within ${RELAY_TIMEOUT_MS / 1000} s`)));
    request.on("error", (error: NodeJS.ErrnoException) => {
      // A socket left by a server that stopped without removing it: nobody to tell.
      if (error.code === "ECONNREFUSED" || error.code === "ENOENT") resolve(undefined);
      else resolve(error.message);
    });
    request.end(body);
  });
}
