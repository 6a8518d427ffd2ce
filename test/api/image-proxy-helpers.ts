import http from "node:http";
import type { AddressInfo } from "node:net";
import { makePng } from "./uploads-helpers.js";

/** "The other site" of the image proxy tests: a local HTTP server with one behaviour per path. */
export interface OtherSite {
  /** http://<host>:<port> */
  origin: string;
  port: number;
  /** Requests received, by path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Serves: /img/photo.png and /img/other.png (PNG 1200x800 and 300x200), /img/noext (a PNG
 * without extension), /img/page.png (an HTML page), /img/huge.png (3 MiB declared up front),
 * /img/endless.png (PNG bytes without end, no length), /img/slow.png (headers never sent),
 * /img/moved.png (redirects to photo.png), /img/loop.png (redirects to itself), /img/gone.png
 * (404), and /redirect?to=URL (a redirect anywhere).
 */
export async function startOtherSite(host = "127.0.0.1"): Promise<OtherSite> {
  const photo = await makePng(1200, 800);
  const other = await makePng(300, 200);
  const hits = new Map<string, number>();
  const pending = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://site");
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const png = (data: Buffer): void => void response.writeHead(200, { "Content-Type": "image/png", "Content-Length": data.length }).end(data);
    switch (url.pathname) {
      case "/img/photo.png":
        return png(photo);
      case "/img/other.png":
      case "/img/noext":
        return png(other);
      case "/img/page.png":
        return void response.writeHead(200, { "Content-Type": "image/png" }).end("<!doctype html><html><body>not a picture</body></html>");
      case "/img/huge.png":
        response.writeHead(200, { "Content-Type": "image/png", "Content-Length": 3 * 1024 * 1024 });
        return void response.end(Buffer.concat([photo, Buffer.alloc(3 * 1024 * 1024 - photo.length)]));
      case "/img/endless.png": {
        response.writeHead(200, { "Content-Type": "image/png" });
        response.write(photo.subarray(0, 64));
        const chunk = Buffer.alloc(64 * 1024);
        const pump = (): void => {
          while (!response.destroyed && response.write(chunk));
          if (!response.destroyed) response.once("drain", pump);
        };
        return pump();
      }
      case "/img/slow.png":
        pending.add(response);
        return;
      case "/img/moved.png":
        return void response.writeHead(302, { Location: "/img/photo.png" }).end();
      case "/img/loop.png":
        return void response.writeHead(301, { Location: "/img/loop.png" }).end();
      case "/redirect":
        return void response.writeHead(302, { Location: url.searchParams.get("to") ?? "/" }).end();
      default:
        return void response.writeHead(404, { "Content-Type": "text/plain" }).end("no such thing");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://${host}:${port}`,
    port,
    hits,
    async close() {
      for (const response of pending) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

