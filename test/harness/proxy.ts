import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./process.js";

/** A round-robin load balancer: every request may land on a different backend. */
export interface Proxy {
  url: string;
  /** The backends, in rotation order. */
  readonly backends: readonly string[];
  close(): Promise<void>;
}

/** The project's HAProxy configuration, which the tests run when ROOKERY_TEST_BALANCER=haproxy. */
const HAPROXY_CFG = path.resolve(import.meta.dirname, "../../deploy/haproxy.cfg");

/**
 * A round-robin load balancer in front of `backends`: HAProxy with the project's own
 * configuration when ROOKERY_TEST_BALANCER=haproxy (CI sets it), else a small proxy in this
 * process that balances the same way (for machines without HAProxy).
 */
export function startProxy(backends: readonly string[]): Promise<Proxy> {
  return process.env.ROOKERY_TEST_BALANCER === "haproxy" ? startHaproxy(backends) : startNodeProxy(backends);
}

/** HAProxy run from deploy/haproxy.cfg, its frontend on a free port and its servers `backends`. */
export async function startHaproxy(backends: readonly string[]): Promise<Proxy> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-haproxy-"));
  const servers = backends.map((url, i) => `    server rookery${i + 1} ${new URL(url).host} check`);
  const shipped = fs.readFileSync(HAPROXY_CFG, "utf8").split("\n");
  const lines = shipped.filter((line) => !/^\s*server\s/.test(line)).map((line) => line.replace(/^(\s*bind\s+):\d+/, `$1127.0.0.1:${port}`));
  if (!lines.some((line) => line.includes(`127.0.0.1:${port}`))) throw new Error(`no "bind :port" line in ${HAPROXY_CFG}`);
  fs.writeFileSync(path.join(dir, "haproxy.cfg"), [...lines, ...servers, ""].join("\n"));
  // -db: in the foreground, so that killing the child stops it.
  const stop = await startDaemon("haproxy", ["-db", "-f", path.join(dir, "haproxy.cfg")], port, dir);
  return { url: `http://127.0.0.1:${port}`, backends, close: stop };
}

/** The project's nginx configuration (a file for nginx's conf.d/, inside its http block). */
const NGINX_CONF = path.resolve(import.meta.dirname, "../../deploy/nginx.conf");

/**
 * nginx run from deploy/nginx.conf: its TLS server on a free port of 127.0.0.1 with the given
 * certificate, its upstream `backends`. `url` is https://; `redirectUrl` the plain-HTTP server
 * that sends clients to it. The rest of the file (headers, timeouts, body size) is as shipped.
 */
export async function startNginx(backends: readonly string[], tls: { certFile: string; keyFile: string }): Promise<Proxy & { redirectUrl: string }> {
  const [port, redirectPort] = [await freePort(), await freePort()];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-nginx-"));
  const shipped = fs.readFileSync(NGINX_CONF, "utf8").split("\n");
  const site: string[] = [];
  for (const line of shipped) {
    // IPv6 listeners are left out: the machine may have no IPv6.
    if (/^\s*listen\s+\[::\]/.test(line)) continue;
    if (/^\s*server\s+\S+:\d+;/.test(line)) {
      site.push(...backends.map((url) => `    server ${new URL(url).host};`));
      continue;
    }
    site.push(
      line
        .replace(/^(\s*listen\s+)443\b/, `$1127.0.0.1:${port}`)
        .replace(/^(\s*listen\s+)80;/, `$1127.0.0.1:${redirectPort};`)
        .replace(/^(\s*ssl_certificate\s+)\S+;/, `$1${tls.certFile};`)
        .replace(/^(\s*ssl_certificate_key\s+)\S+;/, `$1${tls.keyFile};`),
    );
  }
  for (const wanted of [`127.0.0.1:${port} ssl`, `127.0.0.1:${redirectPort};`, tls.certFile, tls.keyFile, `server ${new URL(backends[0]!).host};`]) {
    if (!site.some((line) => line.includes(wanted))) throw new Error(`${NGINX_CONF} no longer has the line the tests rewrite into "${wanted}"`);
  }
  fs.writeFileSync(path.join(dir, "rookery.conf"), site.join("\n"));
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((name) => `  ${name}_temp_path ${path.join(dir, name)};`);
  const main = ["daemon off;", "master_process off;", `pid ${path.join(dir, "nginx.pid")};`, `error_log ${path.join(dir, "error.log")} warn;`, "events { worker_connections 1024; }", "http {", "  access_log off;", ...temp, `  include ${path.join(dir, "rookery.conf")};`, "}", ""];
  fs.writeFileSync(path.join(dir, "nginx.conf"), main.join("\n"));
  const stop = await startDaemon("nginx", ["-p", dir, "-e", path.join(dir, "error.log"), "-c", path.join(dir, "nginx.conf")], port, dir);
  return { url: `https://127.0.0.1:${port}`, redirectUrl: `http://127.0.0.1:${redirectPort}`, backends, close: stop };
}

/** The daemons this test process started and has not stopped. */
const running = new Set<ChildProcess>();
/**
 * Test files that never stop their servers, or fail before they do, must not leave a daemon behind:
 * they go when the test process exits, or when the test runner ends it with a signal.
 */
function stopAll(): void {
  for (const child of running) child.kill("SIGKILL");
}
process.once("exit", stopAll);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    stopAll();
    process.kill(process.pid, signal);
  });
}

/** Runs `command` in the foreground until it accepts connections on `port`; resolves to its stop function. */
async function startDaemon(command: string, args: string[], port: number, dir: string): Promise<() => Promise<void>> {
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  running.add(child);
  let errors = "";
  child.stderr?.on("data", (d: Buffer) => (errors += d.toString()));
  child.once("error", (error) => (errors += `${error.message} (needs ${command} on the PATH)`));
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      running.delete(child);
      resolve();
    }),
  );
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || errors.includes("ENOENT") || Date.now() > deadline) {
      if (child.exitCode === null) child.kill("SIGKILL");
      const log = fs.existsSync(path.join(dir, "error.log")) ? fs.readFileSync(path.join(dir, "error.log"), "utf8") : "";
      throw new Error(`${command} did not start: ${errors}${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * A proxy in this process on 127.0.0.1 that sends each request to the next backend in turn, as a
 * plain load balancer does, with no stickiness. A backend that refuses the connection is skipped
 * for that request (the next one is tried), like HAProxy's redispatch.
 */
async function startNodeProxy(backends: readonly string[]): Promise<Proxy> {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true });
  const proxy = { url: "", backends, close: async () => {} };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number) => {
        const list = proxy.backends;
        const target = list[next++ % list.length]!;
        const upstream = http.request(new URL(request.url ?? "/", target), { method: request.method, headers: request.headers, agent }, (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        });
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (response.headersSent) return response.destroy();
          if (error.code === "ECONNREFUSED" && tries + 1 < list.length) return attempt(tries + 1);
          response.writeHead(502, { "content-type": "text/plain" }).end(`proxy: ${error.message}\n`);
        });
        response.on("close", () => {
          if (!response.writableFinished) upstream.destroy();
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  proxy.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  proxy.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    agent.destroy();
  };
  return proxy;
}
