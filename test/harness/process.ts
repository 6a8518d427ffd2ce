import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

const handedOut = new Set<number>();

/**
 * A free TCP port on 127.0.0.1, below Linux's ephemeral range (32768 and up): a server that listens
 * on it again after a restart finds it still free, as no outgoing connection is given a port there
 * (a port the kernel hands out for port 0 is one it may give a connection next). Never the same
 * port twice in one test process.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (handedOut.has(port)) continue;
    const server = net.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (bound) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      handedOut.add(port);
      return port;
    }
  }
}

/** Runs `rookery serve` from the built file `main` and waits for its ready line; `out()` is what it printed. */
export async function spawnServer(main: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn("node", [main, "serve"], { env });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`exited ${code}: ${out}`));
    child.on("exit", onExit);
    const timer = setInterval(() => {
      if (out.includes("Rookery is serving")) {
        clearInterval(timer);
        child.off("exit", onExit);
        resolve();
      }
    }, 20);
  });
  return { child, out: () => out };
}

/**
 * Runs `rookery serve` from the sources (vite-node) on `dataDir` and `port` and waits for its
 * ready line; `output` is what it printed until then. The caller stops the child.
 */
export async function launchFromSource(dataDir: string, port: number, env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; output: string }> {
  const bin = path.resolve("node_modules/.bin/vite-node");
  const child = spawn(bin, ["src/main.ts", "serve"], {
    env: { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_PORT: String(port), ROOKERY_LOG_LEVEL: "warn", ROOKERY_RATE_LIMIT_PER_MINUTE: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 30_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Rookery is serving")) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on("data", read);
      child.stderr?.on("data", read);
      child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });
  } catch (error) {
    if (child.exitCode === null) child.kill("SIGKILL");
    throw error;
  }
  return { child, output };
}
