# Rookery's container image. A thin wrapper: deploy/install.sh does the work, the same script CI
# runs and tests (test/deploy/install.test.ts). Run it with a volume for the data and the address
# clients use, for example:
#   docker build -t rookery .
#   docker run -p 9991:9991 -v rookery-data:/var/lib/rookery -e ROOKERY_EXTERNAL_URL=http://localhost:9991 rookery
# compose.yaml runs it alone on SQLite; deploy/compose.cluster.yaml runs three with PostgreSQL,
# Redis and HAProxy.
FROM node:22-bookworm-slim

# Compilers for a native module with no prebuilt binary for this platform (better-sqlite3, sharp).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

COPY . /src
RUN /src/deploy/install.sh /opt/rookery && rm -rf /src /root/.npm

USER rookery
WORKDIR /var/lib/rookery
ENV ROOKERY_DATA_DIR=/var/lib/rookery \
    ROOKERY_HOST=0.0.0.0 \
    ROOKERY_PORT=9991
VOLUME /var/lib/rookery
EXPOSE 9991
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.ROOKERY_PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A clean stop (SIGTERM) saves the event queues for the next start.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/rookery/dist/rookery.js"]
CMD ["serve"]
