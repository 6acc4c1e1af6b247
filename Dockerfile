# Meridian's production image: `npm run image` builds it as meridian:<BUILD_ID>.
# Runs with a read-only root file system given writable /tmp and /app/.next/cache
# (docs/operations.md#docker).
#
# NODE_IMAGE is the base of both stages: the official Node LTS slim image by
# default; machines without a container registry pass the local base that
# tools/node-base.mjs makes (`--build-arg NODE_IMAGE=meridian-node-base:<node version>`).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
# Marks what the build stage leaves in a classic builder's cache, to prune it.
LABEL io.meridian.stage=build
WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1
# The dependencies first: their layer is reused until the lock file changes.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build id is Next's deploymentId (asset URLs, data-dpl-id, skew handling),
# so it is set before Next's build; the revision stands in for the .git left out.
ARG BUILD_ID=
ARG REVISION=
RUN BUILD_REVISION="$REVISION" NEXT_TELEMETRY_DISABLED=1 npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# HOSTNAME is the address our entry binds; Docker would set it to the
# container's host name, an address only other containers reach. MALLOC_ARENA_MAX:
# glibc gives each thread that allocates an arena of its own; two arenas took 25-60 MiB
# off the pod's memory (the server and its renderer) in a flood (docs/performance.md).
ENV NODE_ENV=production \
    HOSTNAME=0.0.0.0 \
    MALLOC_ARENA_MAX=2
# The standalone output holds our entry, Next's traced node_modules, the static
# assets, public/ and locales/ (src/build/build-server.mjs), owned by root: the
# app cannot change its own code.
COPY --from=build /src/.next/standalone ./
# Next's run-time cache (optimised images, fetch cache): the one folder the app
# writes, a tmpfs or emptyDir when the root file system is read-only.
RUN mkdir .next/cache && chown 10001:10001 .next/cache
USER 10001:10001
EXPOSE 3000 9464
STOPSIGNAL SIGTERM
# Node itself asks /healthz: the image has no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself, no shell in between. A young
# generation of 2 MiB semi-spaces: with V8's default the serving process grew to about 120 MiB
# while proxying a flood of renders, and to about 70 MiB with it (docs/performance.md).
# The bench starts our entry with these arguments, and so does npm start.
ENTRYPOINT ["node", "--max-semi-space-size=2", "meridian-server.cjs"]

ARG NODE_IMAGE
ARG VERSION=
ARG REVISION=
ARG SOURCE=
ARG CREATED=
LABEL org.opencontainers.image.title="meridian" \
      org.opencontainers.image.base.name="${NODE_IMAGE}" \
      org.opencontainers.image.description="Server-rendered multilingual website shell" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.created="${CREATED}"
