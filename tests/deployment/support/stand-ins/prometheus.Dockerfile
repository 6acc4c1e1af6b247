# Stands in for prom/prometheus, which no registry here serves: Debian's
# prometheus, run as the official image runs it (user nobody, data in /prometheus,
# the flags from docker-compose.yml's `command`).
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir /prometheus && chown nobody:nogroup /prometheus
USER nobody
ENTRYPOINT ["/bin/prometheus"]
