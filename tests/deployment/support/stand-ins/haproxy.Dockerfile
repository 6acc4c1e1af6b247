# Stands in for the official haproxy image, which no registry here serves:
# Debian's haproxy, run as the official image runs it (user haproxy, the
# configuration at /usr/local/etc/haproxy/haproxy.cfg).
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends haproxy \
 && rm -rf /var/lib/apt/lists/*
USER haproxy
STOPSIGNAL SIGUSR1
ENTRYPOINT ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]
