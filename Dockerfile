# ZoneStream from this repository: a Swift build stage, then a slim Debian runtime with the
# two C libraries it links (librdkafka, jansson). Used by docker-compose.yml; see
# docs/how-to/install.md. The toolchain image is a build argument, e.g.
#   docker build --build-arg SWIFT_IMAGE=swift:6.3.1-bookworm -t zonestream .
# Every image is pinned by version; the build copies exactly what the package needs (a test
# builds the package from a directory that holds only these COPY sources).
ARG SWIFT_IMAGE=swift:6.3.1-bookworm

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends librdkafka-dev libjansson-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The manifest and its build plugin first, so the dependency fetch is cached while sources
# change. Tests is copied because the manifest declares the test targets.
COPY Package.swift ./
COPY Plugins Plugins
COPY scripts/build-info.sh scripts/build-info.sh
RUN swift package resolve
COPY Sources Sources
COPY Tests Tests
RUN swift build -c release --product zonestream --static-swift-stdlib \
 && cp "$(swift build -c release --show-bin-path)/zonestream" /zonestream

FROM debian:12.12-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends librdkafka1 libjansson4 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 zonestream
COPY --from=build /zonestream /usr/local/bin/zonestream
COPY config/zonestream.yaml /etc/zonestream/zonestream.yaml
# In a container the endpoint must listen beyond loopback to be reachable.
ENV ZONESTREAM_HTTP_HOST=0.0.0.0
USER zonestream
EXPOSE 8080
# `zonestream probe` asks /ready on the local endpoint and exits 0 or 1: no shell or curl needed.
HEALTHCHECK --interval=5s --timeout=5s --start-period=30s --retries=3 \
  CMD ["zonestream", "probe", "--config", "/etc/zonestream/zonestream.yaml"]
ENTRYPOINT ["zonestream"]
CMD ["run", "--config", "/etc/zonestream/zonestream.yaml"]
