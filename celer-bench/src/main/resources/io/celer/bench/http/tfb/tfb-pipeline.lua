-- Pipelined requests for wrk, as TechEmpower's load generator sends them:
--   wrk -t1 -cN -dS -s tfb-pipeline.lua URL -- DEPTH
-- With TFB_EXPECT_BODY and TFB_EXPECT_TYPE in the environment, every response is also checked (status 200,
-- the exact body, Content-Type, Content-Length, Server, Date) and done() prints what was seen; a Lua call per
-- response slows wrk down, so the harness checks during the warm-up and measures without.
local expected_body = os.getenv("TFB_EXPECT_BODY")
local expected_type = os.getenv("TFB_EXPECT_TYPE")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local depth = tonumber(args[1]) or 1
  local requests = {}
  for i = 1, depth do
    requests[i] = wrk.format(nil, nil, {
      ["Accept"] = "text/plain,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7",
      ["Connection"] = "keep-alive"})
  end
  pipeline = table.concat(requests)
  checked = 0
  wrong = 0
  first = "none"
end

function request()
  return pipeline
end

if expected_body then
  function response(status, headers, body)
    checked = checked + 1
    local fields = {}
    for name, value in pairs(headers) do
      fields[string.lower(name)] = value
    end
    local problem = nil
    if status ~= 200 then
      problem = "status " .. status
    elseif body ~= expected_body then
      problem = "body " .. body
    elseif fields["content-type"] ~= expected_type then
      problem = "Content-Type " .. tostring(fields["content-type"])
    elseif tonumber(fields["content-length"]) ~= #expected_body then
      problem = "Content-Length " .. tostring(fields["content-length"])
    elseif not fields["server"] then
      problem = "no Server"
    elseif not fields["date"] or #fields["date"] ~= 29 then
      problem = "no or wrong Date"
    end
    if problem then
      wrong = wrong + 1
      if first == "none" then
        first = string.gsub(problem, "%s", "_")
      end
    end
  end
end

function done(summary, latency, requests)
  if expected_body then
    for _, thread in ipairs(threads) do
      io.write(string.format("tfb-check checked=%d wrong=%d first=%s\n", thread:get("checked"),
        thread:get("wrong"), thread:get("first")))
    end
  end
end
