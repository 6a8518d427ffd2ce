/**
 * Which IP addresses an outgoing fetch on a user's behalf may reach: public unicast only. Every
 * special-purpose range of IANA's IPv4 and IPv6 registries is refused (loopback, private,
 * link-local with the cloud metadata address, CGNAT, multicast, documentation, benchmarking,
 * reserved), and an IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4, Teredo) is
 * judged by the IPv4 address inside.
 */
import net from "node:net";

const IPV4_REFUSED: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.31.196.0", 24], // AS112
  ["192.52.193.0", 24], // AMT
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["192.175.48.0", 24], // AS112 direct delegation
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

const IPV6_REFUSED: readonly [string, number][] = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments, Teredo
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // segment routing
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];

/** Whether a fetch may connect to this address (an IPv4 or IPv6 literal); anything unparsable is refused. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return isPublicV4(v4Number(address));
  if (family === 6) return isPublicV6(v6Number(address));
  return false;
}

function isPublicV4(value: number): boolean {
  return !IPV4_REFUSED.some(([base, bits]) => inV4(value, v4Number(base), bits));
}

function isPublicV6(value: bigint): boolean {
  const embedded = embeddedV4(value);
  if (embedded !== undefined) return isPublicV4(embedded);
  // Only global unicast (2000::/3) is routed on the internet at all.
  if (value >> 125n !== 1n) return false;
  return !IPV6_REFUSED.some(([base, bits]) => inV6(value, v6Number(base), bits));
}

// The IPv4 address an IPv6 one stands for: IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d,
// NAT64 64:ff9b::/96 and 6to4 2002::/16. (Teredo, in 2001::/32, is refused with 2001::/23.)
function embeddedV4(value: bigint): number | undefined {
  const low32 = Number(value & 0xffffffffn);
  if (value >> 32n === 0xffffn || (value >> 32n === 0n && value > 1n)) return low32;
  if (value >> 32n === v6Number("64:ff9b::") >> 32n) return low32;
  if (value >> 112n === 0x2002n) return Number((value >> 80n) & 0xffffffffn);
  return undefined;
}

function inV4(value: number, base: number, bits: number): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (value & mask) >>> 0 === (base & mask) >>> 0;
}

function inV6(value: bigint, base: bigint, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return value >> shift === base >> shift;
}

function v4Number(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function v6Number(address: string): bigint {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  // A trailing dotted IPv4 part becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4Number(dotted[1] ?? "");
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill("0"), ...tailGroups];
  return groups.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16) || 0), 0n);
}
