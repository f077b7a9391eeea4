# ZoneStream from this repository: a Swift build stage, then a slim Debian runtime with the
# two C libraries it links (librdkafka, jansson). Used by docker-compose.yml; see
# docs/operations.md. The toolchain image is a build argument, e.g.
#   docker build --build-arg SWIFT_IMAGE=swift:6.3-bookworm -t zonestream .
ARG SWIFT_IMAGE=swift:6.3-bookworm

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends librdkafka-dev libjansson-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The manifest first, so the dependency fetch is cached while sources change.
COPY Package.swift ./
RUN swift package resolve
COPY Sources Sources
COPY Tests Tests
RUN swift build -c release --product zonestream --static-swift-stdlib \
 && cp "$(swift build -c release --show-bin-path)/zonestream" /zonestream

FROM debian:bookworm-slim
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
ENTRYPOINT ["zonestream"]
CMD ["run", "--config", "/etc/zonestream/zonestream.yaml"]
