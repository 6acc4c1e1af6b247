-- wrk reporter for tools/bench/throughput.mjs: prints wrk's aggregate results
-- as one JSON line, prefixed with BENCH_JSON. Latencies are in microseconds.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"non_2xx_3xx":%d,' ..
    '"errors_connect":%d,"errors_read":%d,"errors_write":%d,"errors_timeout":%d,' ..
    '"latency_p50_us":%d,"latency_p90_us":%d,"latency_p99_us":%d,"latency_max_us":%d,"latency_mean_us":%.1f}\n',
    summary.requests, summary.duration, summary.bytes, e.status,
    e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
