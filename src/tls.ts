import { X509Certificate } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import tls from "node:tls";
import type { Logger } from "pino";
import { ConfigError, type TlsFiles } from "./config.js";

/** A certificate and its key, read and checked to belong together. */
interface Certificate {
  cert: Buffer;
  key: Buffer;
}

/** Reads the certificate and key; a file that cannot be read, or a pair that does not match, is a ConfigError. */
export function readCertificate(files: TlsFiles): Certificate {
  const read = (name: string, file: string) => {
    try {
      return fs.readFileSync(file);
    } catch (error) {
      throw new ConfigError(`${name} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const pair = { cert: read("ROOKERY_TLS_CERT", files.certFile), key: read("ROOKERY_TLS_KEY", files.keyFile) };
  try {
    tls.createSecureContext(pair);
  } catch (error) {
    throw new ConfigError(`ROOKERY_TLS_CERT and ROOKERY_TLS_KEY cannot be used together: ${error instanceof Error ? error.message : String(error)}`);
  }
  return pair;
}

/**
 * Fastify's serverFactory for HTTPS: the server Fastify would make for plain HTTP, with TLS, and
 * the same timeouts (Fastify applies them only to servers it makes itself).
 */
export function httpsServerFactory(files: TlsFiles) {
  const certificate = readCertificate(files);
  return (handler: http.RequestListener, options: { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number; http?: http.ServerOptions | null }): http.Server => {
    const server = https.createServer({ ...options.http, ...certificate, minVersion: "TLSv1.2" }, handler);
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    return server;
  };
}

/**
 * Reads the certificate files again and serves the new pair to connections made from now on
 * (SIGHUP, after a renewal). A pair that cannot be used is logged and the old one kept.
 */
export function reloadCertificate(server: http.Server, files: TlsFiles, log: Logger): void {
  if (!(server instanceof https.Server)) return;
  try {
    const certificate = readCertificate(files);
    server.setSecureContext({ ...certificate, minVersion: "TLSv1.2" });
    const { subject, validTo } = new X509Certificate(certificate.cert);
    log.info({ subject, validTo }, "TLS certificate reloaded");
  } catch (error) {
    log.error({ err: error }, "TLS certificate not reloaded; still serving the previous one");
  }
}
