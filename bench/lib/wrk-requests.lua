-- wrk script for bench/lib/wrk-load.ts. Reads the requests to send from the file named after `--`, one a
-- line: METHOD <tab> PATH <tab> headers as `name: value` joined by U+001F <tab> BODY. Each is formatted
-- once at start-up, then cycled, so a request costs wrk no Lua work beyond an array read.
local reqs = {}
local count = 0
local next_index = 0

function init(args)
  for line in io.lines(args[1]) do
    local method, path, header_text, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
    local headers = {}
    for header in (header_text .. "\31"):gmatch("([^\31]*)\31") do
      local name, value = header:match("^([^:]+):%s*(.*)$")
      if name then headers[name] = value end
    end
    count = count + 1
    reqs[count] = wrk.format(method, path, headers, body ~= "" and body or nil)
  end
end

function request()
  next_index = next_index % count + 1
  return reqs[next_index]
end

-- One line for wrk-load.ts to parse (latencies in µs; errors: connect, read, write, timeout, non-2xx/3xx).
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_RESULT {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"errors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
