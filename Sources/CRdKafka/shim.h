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
