-- wrk script for tools/bench/mixed-load.mjs: the mixed load. Each request is a
-- page load (60 %: one of the page paths given after `--`, by default the locales' home
-- pages) or a path the site does not have (40 %: random hex under each locale, so every
-- 404 is new), and half of all requests accept br/gzip. The report at the end is
-- wrk-report.lua's.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
dofile(here .. "wrk-report.lua")
dofile(here .. "random-hex.lua")

local pages = { "/", "/ja", "/zh-CN" }
local missing = { "/", "/ja/", "/zh-CN/" }
local compressed = { ["Accept-Encoding"] = "br, gzip" }
local plain = {}

function init(args)
  math.randomseed(seed or os.time())
  if args[1] then
    pages = {}
    for page in string.gmatch(args[1], "[^,]+") do pages[#pages + 1] = page end
  end
end

function request()
  local path
  if math.random() < 0.6 then
    path = pages[math.random(#pages)]
  else
    path = missing[math.random(#missing)] .. hex(16)
  end
  return wrk.format("GET", path, math.random() < 0.5 and compressed or plain)
end
