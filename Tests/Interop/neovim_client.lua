-- Neovim's own clients, unmodified, run the interop sign-up against signup-rpc: vim.lsp.rpc (LSP
-- framing) and a plain line client over jobstart. Run headless by test_clients.py:
--   nvim --headless -u NONE -i NONE -c "luafile neovim_client.lua"
-- Exits 0 when both saw what a person would have seen, 1 (with the reason on stderr) otherwise.
local binary = os.getenv("SIGNUP_RPC_BINARY")
local args = { "--clock", "virtual" }

local function session()
  return {
    { "request", "initialize", { processId = vim.NIL, rootUri = vim.NIL, capabilities = vim.empty_dict(), clientInfo = { name = "neovim" } } },
    { "notify", "initialized", vim.empty_dict() },
    { "request", "form.open", { form = "f" } },
    { "notify", "form.edit", { form = "f", field = "username", value = "root", at = 0 } },
    { "request", "clock.advance", { to = 600 } },
    { "notify", "form.edit", { form = "f", field = "username", value = "alice", at = 600 } },
    { "notify", "form.edit", { form = "f", field = "password", value = "secret1", at = 610 } },
    { "notify", "form.edit", { form = "f", field = "repeatedPassword", value = "secret1", at = 620 } },
    { "request", "clock.advance", { to = 1200 } },
    { "request", "form.submit", { form = "f", at = 1200 } },
    { "request", "clock.advance", { to = 2300 } },
    { "request", "shutdown", nil },
  }
end

local function fail(message)
  io.stderr:write("neovim_client: " .. message .. "\n")
  vim.cmd("cquit 1")
end

local function check(name, events, results, code)
  local username, submission = {}, {}
  for _, event in ipairs(events) do
    local method, params = event[1], event[2]
    if method == "form.fieldChanged" and params.field == "username" then
      table.insert(username, params.state .. " " .. params.code)
    elseif method == "form.submissionChanged" then
      table.insert(submission, params.state)
    end
  end
  local want_username = "empty username.empty, validating username.checking, failed username.taken, "
    .. "validating username.checking, ok username.available"
  if table.concat(username, ", ") ~= want_username then
    fail(name .. ": username went " .. table.concat(username, ", "))
  elseif table.concat(submission, ", ") ~= "submitting, succeeded" then
    fail(name .. ": submission went " .. table.concat(submission, ", "))
  elseif results["form.submit"] == nil or results["form.submit"].accepted ~= true then
    fail(name .. ": the tap was not accepted")
  elseif code ~= 0 then
    fail(name .. ": signup-rpc exited " .. tostring(code))
  end
end

-- vim.lsp.rpc: LSP framing, as Neovim's language clients speak.
do
  local events, results, exit_code = {}, {}, nil
  local client = vim.lsp.rpc.start(binary, args, {
    notification = function(method, params) table.insert(events, { method, params }) end,
    on_exit = function(code) exit_code = code end,
  })
  for _, step in ipairs(session()) do
    if step[1] == "request" then
      local answered = false
      client.request(step[2], step[3], function(err, result)
        if err then fail("vim.lsp.rpc: " .. step[2] .. " failed: " .. vim.inspect(err)) end
        results[step[2]] = result
        answered = true
      end)
      if not vim.wait(30000, function() return answered end, 5) then fail("vim.lsp.rpc: no answer to " .. step[2]) end
    else
      client.notify(step[2], step[3])
    end
  end
  client.notify("exit")
  if not vim.wait(30000, function() return exit_code ~= nil end, 5) then fail("vim.lsp.rpc: signup-rpc did not exit") end
  check("vim.lsp.rpc", events, results, exit_code)
end

-- jobstart: one JSON message per line.
do
  local events, results, exit_code, partial = {}, {}, nil, ""
  local job = vim.fn.jobstart(vim.list_extend({ binary }, args), {
    on_stdout = function(_, data)
      data[1] = partial .. data[1]
      partial = table.remove(data)
      for _, line in ipairs(data) do
        if line ~= "" then
          local message = vim.json.decode(line)
          if message.method then table.insert(events, { message.method, message.params }) end
          if message.id then results[message.id] = message.result end
        end
      end
    end,
    on_exit = function(_, code) exit_code = code end,
  })
  local names = {}
  for number, step in ipairs(session()) do
    local message = { jsonrpc = "2.0", method = step[2], params = step[3] }
    if step[1] == "request" then message.id = number end
    vim.fn.chansend(job, vim.json.encode(message) .. "\n")
    if step[1] == "request" then
      names[number] = step[2]
      if not vim.wait(30000, function() return results[number] ~= nil or step[2] == "shutdown" end, 5) then
        fail("jobstart: no answer to " .. step[2])
      end
    end
  end
  vim.fn.chansend(job, vim.json.encode({ jsonrpc = "2.0", method = "exit" }) .. "\n")
  vim.fn.chanclose(job, "stdin")
  if not vim.wait(30000, function() return exit_code ~= nil end, 5) then fail("jobstart: signup-rpc did not exit") end
  local by_name = {}
  for number, name in pairs(names) do by_name[name] = results[number] end
  check("jobstart", events, by_name, exit_code)
end

vim.cmd("qall!")
