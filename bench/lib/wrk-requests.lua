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
  -- The CPU spent so far (seconds; os.clock is the whole process's) is start-up, before the clock starts.
  io.write(string.format('WRK_INIT_CPU %.6f\n', os.clock()))
end

function request()
  next_index = next_index % count + 1
  return reqs[next_index]
end

-- One line for wrk-load.ts to parse (latencies in µs; errors: connect, read, write, timeout, non-2xx/3xx;
-- cpuS: the whole process's CPU seconds, start-up included).
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_RESULT {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"errors":%d,"cpuS":%.6f}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout, os.clock()))
end
