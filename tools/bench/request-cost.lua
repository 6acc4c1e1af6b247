-- wrk script for tools/bench/request-cost.mjs: one kind of request, over and over. The
-- path after `--` is sent as given, with each "{hex}" in it replaced by 16 new random hex
-- digits per request (so every 404 is new); headers come from wrk's -H. The report at the
-- end is wrk-report.lua's.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
dofile(here .. "wrk-report.lua")
dofile(here .. "random-hex.lua")

local template = "/"

function init(args)
  math.randomseed(seed or os.time())
  if args[1] then template = args[1] end
end

function request()
  local path = template:gsub("{hex}", function() return hex(16) end)
  return wrk.format("GET", path)
end
