import Testing
import ZoneKafka

/// What the processor reads of librdkafka's statistics: the lag of partitions being fetched
/// (not of those librdkafka does not know yet, nor its internal partition -1), and whether any
/// broker is up.
struct ClientStatisticsTests {
    static let document = #"""
        {"brokers":{"127.0.0.1:9092/1":{"state":"UP"},"127.0.0.1:9093/2":{"state":"DOWN"}},
         "topics":{"workout-events":{"partitions":{
           "0":{"partition":0,"consumer_lag":42,"fetch_state":"active"},
           "1":{"partition":1,"consumer_lag":-1,"fetch_state":"active"},
           "2":{"partition":2,"consumer_lag":7,"fetch_state":"stopped"},
           "-1":{"partition":-1,"consumer_lag":0,"fetch_state":"none"}}}}}
        """#

    @Test func lagsAreThoseOfPartitionsBeingFetched() {
        #expect(ClientStatistics.lags(Self.document) == [.init(topic: "workout-events", partition: 0): 42])
        #expect(ClientStatistics.lags("not json").isEmpty)
    }

    @Test func aBrokerIsUpWhenAnyIs() {
        #expect(ClientStatistics.anyBrokerUp(Self.document) == true)
        #expect(ClientStatistics.anyBrokerUp(#"{"brokers":{"b":{"state":"DOWN"}}}"#) == false)
        #expect(ClientStatistics.anyBrokerUp(#"{"brokers":{}}"#) == nil)
    }
}
