-- wrk script: every request takes a random line of the file named by OCEQ_WRK_PATHS (one request
-- target a line, e.g. "/content/published/api/v1.1/items?q=...&channelToken=..."), so a run sends
-- what a real site sends: different types, terms, offsets and orders, not one URL over and over.
-- Each wrk thread draws from its own fixed seed, so two runs send the same sequence.
-- Usage: OCEQ_WRK_PATHS=FILE wrk -t2 -c8 -d10s --latency -s Scripts/serve-varied.lua http://HOST:PORT
local threads = 0

function setup(thread)
    threads = threads + 1
    thread:set("seed", threads)
end

function init(args)
    local name = os.getenv("OCEQ_WRK_PATHS")
    local file = name and io.open(name, "r")
    if not file then
        io.stderr:write("serve-varied.lua: set OCEQ_WRK_PATHS to a readable file of request targets\n")
        os.exit(2)
    end
    paths = {}
    for line in file:lines() do
        if #line > 0 then paths[#paths + 1] = line end
    end
    file:close()
    if #paths == 0 then
        io.stderr:write("serve-varied.lua: " .. name .. " holds no request targets\n")
        os.exit(2)
    end
    math.randomseed(20261201 + (seed or 0))
end

function request()
    return wrk.format("GET", paths[math.random(#paths)])
end
