-- soak.lua - wrk mix for bench/soak.sh: per 10 requests, 6 easy 3x3
-- solves, 3 hard (31-move) 3x3 solves and one 4x4 solve, each a POST
-- to /v1/solve. Also counts non-2xx answers by status.
local bodies = {
  '{"board": "1 2 3 4 5 6 7 0 8"}',
  '{"board": "1 2 3 4 5 6 0 7 8"}',
  '{"board": "4 1 3 7 2 6 0 5 8"}',
  '{"board": "1 2 3 4 0 6 7 5 8"}',
  '{"board": "0 1 3 4 2 5 7 8 6"}',
  '{"board": "1 2 3 0 4 6 7 5 8"}',
  '{"board": "8 6 7 2 5 4 3 0 1"}',
  '{"board": "6 4 7 8 5 0 3 2 1"}',
  '{"board": "8 6 7 2 5 4 3 0 1", "algorithm": "idastar"}',
  '{"board": "5 1 2 4 9 6 3 8 13 15 10 11 14 0 7 12"}',
}
local i = 0
request = function()
  i = i % #bodies + 1
  return wrk.format("POST", "/v1/solve",
                    {["Content-Type"] = "application/json"}, bodies[i])
end
done = function(summary, latency, requests)
  local p = {50, 90, 99, 99.9}
  io.write(string.format("soak: %d requests, %.0f req/s, non-2xx %d, " ..
                         "socket errors %d\n", summary.requests,
                         summary.requests / (summary.duration / 1e6),
                         summary.errors.status,
                         summary.errors.connect + summary.errors.read +
                         summary.errors.write + summary.errors.timeout))
  for _, q in ipairs(p) do
    io.write(string.format("soak: latency p%g %.2f ms\n", q,
                           latency:percentile(q) / 1000))
  end
  io.write(string.format("soak: latency max %.2f ms\n", latency.max / 1000))
end
