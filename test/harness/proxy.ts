import http from "node:http";

/** A round-robin HTTP proxy: every request may land on a different backend. */
export interface Proxy {
  url: string;
  /** The backends, in rotation order; a test may replace the list (a process restarted elsewhere). */
  backends: string[];
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 that sends each request to the next backend in turn, as a plain
 * load balancer does, with no stickiness. A backend that refuses the connection is skipped for
 * that request (the next one is tried), like HAProxy's redispatch.
 */
export async function startProxy(backends: string[]): Promise<Proxy> {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true });
  const proxy: Proxy = { url: "", backends, close: async () => {} };
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
