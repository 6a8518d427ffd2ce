import { spawn } from "node:child_process";
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
async function startHaproxy(backends: readonly string[]): Promise<Proxy> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-haproxy-"));
  const servers = backends.map((url, i) => `    server rookery${i + 1} ${new URL(url).host} check`);
  const shipped = fs.readFileSync(HAPROXY_CFG, "utf8").split("\n");
  const lines = shipped.filter((line) => !/^\s*server\s/.test(line)).map((line) => line.replace(/^(\s*bind\s+):\d+/, `$1127.0.0.1:${port}`));
  if (!lines.some((line) => line.includes(`127.0.0.1:${port}`))) throw new Error(`no "bind :port" line in ${HAPROXY_CFG}`);
  fs.writeFileSync(path.join(dir, "haproxy.cfg"), [...lines, ...servers, ""].join("\n"));
  // -db: in the foreground, so that killing the child stops it.
  const child = spawn("haproxy", ["-db", "-f", path.join(dir, "haproxy.cfg")], { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr?.on("data", (d: Buffer) => (errors += d.toString()));
  child.once("error", (error) => (errors += `${error.message} (ROOKERY_TEST_BALANCER=haproxy needs haproxy on the PATH)`));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || errors.includes("ENOENT") || Date.now() > deadline) throw new Error(`haproxy did not start: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    backends,
    async close() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
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
