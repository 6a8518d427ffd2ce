import net from "node:net";

/** A TCP relay to one address that can be cut: what its clients send after `cut()` goes nowhere. */
export interface TcpRelay {
  /** The relay's own port (on 127.0.0.1). */
  port: number;
  /** From now on, bytes from the relay's clients are dropped and no new connection is relayed (the far side hears nothing). */
  cut(): void;
  close(): Promise<void>;
}

/** Starts a relay to `host:port`, as between a process and its Redis, to cut it off without it noticing. */
export async function startTcpRelay(host: string, port: number): Promise<TcpRelay> {
  let cut = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    if (cut) return;
    const upstream = net.connect(port, host);
    sockets.add(upstream);
    upstream.on("close", () => {
      sockets.delete(upstream);
      if (!cut) client.destroy();
    });
    upstream.on("error", () => upstream.destroy());
    upstream.on("data", (data) => {
      if (!cut) client.write(data);
    });
    client.on("data", (data) => {
      if (!cut) upstream.write(data);
    });
    client.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      cut = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
