-- Run inside `nvim --headless` by editors/neovim/test/run, after the recipe of docs/editors.md
-- (as init.lua), with the Crisis Mode ruleset open. Prints `ok: ...` per check; on the first
-- failure prints `FAIL: ...` and quits with exit code 1.

local function say(line)
  io.stdout:write(line .. "\n")
end

local function fail(msg)
  say("FAIL: " .. msg)
  vim.cmd("cquit 1")
end

local function clients(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.lsp.buf_get_clients(buf)
end

local function count(t)
  local n = 0
  for _ in pairs(t) do
    n = n + 1
  end
  return n
end

-- The position params of the first match of `pattern` in `buf`, `delta` columns on.
local function at(buf, pattern, delta)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for i, line in ipairs(lines) do
    local col = line:find(pattern, 1, true)
    if col then
      return {
        textDocument = { uri = vim.uri_from_bufnr(buf) },
        position = { line = i - 1, character = col - 1 + delta },
      }
    end
  end
  fail("no `" .. pattern .. "` in " .. vim.api.nvim_buf_get_name(buf))
end

-- The one result of a request to the turnscript client.
local function request(buf, method, params)
  local answers = vim.lsp.buf_request_sync(buf, method, params, 20000)
  if answers == nil then
    fail(method .. ": no answer within 20 s")
  end
  for _, a in pairs(answers) do
    if a.error then
      fail(method .. ": " .. vim.inspect(a.error))
    end
    return a.result
  end
  fail(method .. ": no client answered")
end

local ruleset = vim.api.nvim_get_current_buf()
local ruleset_uri = vim.uri_from_bufnr(ruleset)

-- The file type and the comment leader.
if vim.bo[ruleset].filetype ~= "turnscript" then
  fail("filetype is `" .. vim.bo[ruleset].filetype .. "`, not turnscript")
end
say("ok: a .turn file has the file type turnscript")
if vim.bo[ruleset].commentstring ~= "# %s" then
  fail("commentstring is `" .. vim.bo[ruleset].commentstring .. "`")
end
say("ok: commentstring is `# %s`")

-- The server starts and attaches.
if not vim.wait(20000, function() return #clients(ruleset) > 0 end, 50) then
  fail("no language client attached to the ruleset within 20 s")
end
say("ok: turnscript lsp attached")

-- Hover on an order's name.
local hover = request(ruleset, "textDocument/hover", at(ruleset, "by by_ap", 4))
if hover == nil or not vim.inspect(hover.contents):find("order", 1, true) then
  fail("hover on by_ap: " .. vim.inspect(hover))
end
say("ok: hover on an order shows it")

-- Rename a stat of the ruleset: the encounter that uses it (not open) is edited too.
local rename = request(ruleset, "textDocument/rename", vim.tbl_extend("force", at(ruleset, "stat finesse", 5), { newName = "grace" }))
local changes = (rename and rename.changes) or {}
local encounter_uri = vim.uri_from_fname(vim.fn.fnamemodify("rulesets/encounters/crisis-mode.turn", ":p"))
if changes[ruleset_uri] == nil or changes[encounter_uri] == nil then
  fail("rename finesse reaches the ruleset and its encounter: " .. vim.inspect(vim.tbl_keys(changes)))
end
say("ok: rename in the ruleset edits " .. count(changes[encounter_uri]) .. " places in its closed encounter")

-- Open the encounter: it attaches to the same client.
vim.cmd("edit rulesets/encounters/crisis-mode.turn")
local encounter = vim.api.nvim_get_current_buf()
if not vim.wait(20000, function() return #clients(encounter) > 0 end, 50) then
  fail("no language client attached to the encounter")
end
if clients(encounter)[1].id ~= clients(ruleset)[1].id and count(clients(encounter)) ~= 1 then
  fail("the encounter has a client of its own")
end
say("ok: the encounter attached to the same server")

-- A typo in the ruleset: the diagnostic's message says "did you mean".
local lines = vim.api.nvim_buf_get_lines(ruleset, 0, -1, false)
for i, line in ipairs(lines) do
  if line:find("c.finesse desc", 1, true) then
    local typo = line:gsub("c%.finesse desc", "c.finese desc")
    vim.api.nvim_buf_set_lines(ruleset, i - 1, i, false, { typo })
    break
  end
end
local found = nil
vim.wait(20000, function()
  for _, d in ipairs(vim.diagnostic.get(ruleset)) do
    if d.message:find("did you mean `finesse`?", 1, true) then
      found = d.message
      return true
    end
  end
  return false
end, 50)
if found == nil then
  fail("no diagnostic saying `did you mean `finesse`?`: " .. vim.inspect(vim.diagnostic.get(ruleset)))
end
say("ok: the diagnostic reads: " .. found:gsub("\n.*", ""))

vim.cmd("qall!")
