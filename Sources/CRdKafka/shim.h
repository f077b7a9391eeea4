#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

/* Swift cannot call C variadic functions: pushes `count` copies of one (error, rtt) entry on
   a mock broker's error stack for one API key, through rd_kafka_mock_broker_push_request_error_rtts. */
static inline rd_kafka_resp_err_t zonestream_mock_broker_push_errors(
    rd_kafka_mock_cluster_t *cluster, int32_t broker_id, int16_t api_key, size_t count,
    rd_kafka_resp_err_t error, int rtt_ms) {
    rd_kafka_resp_err_t result = RD_KAFKA_RESP_ERR_NO_ERROR;
    for (size_t i = 0; i < count && result == RD_KAFKA_RESP_ERR_NO_ERROR; i++) {
        result = rd_kafka_mock_broker_push_request_error_rtts(cluster, broker_id, api_key, 1, error, rtt_ms);
    }
    return result;
}

/* Swift cannot call C variadic functions: produces one copied record with one header to one
   partition (RD_KAFKA_PARTITION_UA: by key), through rd_kafka_producev. A null value is a
   tombstone. */
static inline rd_kafka_resp_err_t zonestream_produce_with_header(
    rd_kafka_t *handle, const char *topic, int32_t partition, const void *key, size_t key_length,
    const void *value, size_t value_length, const char *header_name, const void *header_value,
    size_t header_length, void *opaque) {
    return rd_kafka_producev(
        handle, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_PARTITION(partition), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
        RD_KAFKA_V_KEY((void *)key, key_length), RD_KAFKA_V_VALUE((void *)value, value_length),
        RD_KAFKA_V_HEADER(header_name, header_value, (ssize_t)header_length), RD_KAFKA_V_OPAQUE(opaque),
        RD_KAFKA_V_END);
}
