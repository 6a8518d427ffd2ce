import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/**
 * The caller's address as the framework's `request.ip` gives it, for requests answered below the
 * framework (routes/events.ts's lean long-polls): the peer's address, or, when the peer is a
 * trusted proxy, the nearest address in X-Forwarded-For that is not (read from the right).
 */
export function clientAddress(trustedProxies: readonly string[]): (req: IncomingMessage) => string | undefined {
  if (trustedProxies.length === 0) return (req) => req.socket.remoteAddress;
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const [address = "", bits] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) trusted.addAddress(address, type);
    else trusted.addSubnet(address, Number(bits), type);
  }
  const isTrusted = (address: string) => {
    const type = isIP(address);
    return type !== 0 && trusted.check(address, type === 6 ? "ipv6" : "ipv4");
  };
  return (req) => {
    const peer = req.socket.remoteAddress;
    const header = req.headers["x-forwarded-for"];
    if (peer === undefined || header === undefined) return peer;
    let address: string = peer;
    const forwarded = (Array.isArray(header) ? header.join(",") : header).split(",").map((part) => part.trim());
    for (let i = forwarded.length - 1; i >= 0 && isTrusted(address); i--) address = forwarded[i]!;
    return address;
  };
}
