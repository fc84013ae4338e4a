-- Run inside `nvim --headless` by editors/neovim/test/run, after the recipe of docs/editors.md
-- and its tree-sitter autocommand, with the parser and the queries installed as the page says
-- and the Crisis Mode ruleset open: the buffer is highlighted by tree-sitter, every bundled
-- ruleset and encounter parses with no error node in Neovim's own tree-sitter, and the highlight
-- queries capture keywords, declarations, fields and comments.

local function say(line)
  io.stdout:write(line .. "\n")
end

local function fail(msg)
  say("FAIL: " .. msg)
  vim.cmd("cquit 1")
end

local buf = vim.api.nvim_get_current_buf()
if vim.treesitter.highlighter.active[buf] == nil then
  fail("no tree-sitter highlighter on " .. vim.api.nvim_buf_get_name(buf))
end
say("ok: the parser from src/parser.c highlights the ruleset (" .. vim.bo[buf].filetype .. ")")

local files = vim.fn.glob("rulesets/*.turn", false, true)
for _, dir in ipairs({ "rulesets/encounters", "rulesets/library", "rulesets/library/encounters" }) do
  vim.list_extend(files, vim.fn.glob(dir .. "/*.turn", false, true))
end
for _, f in ipairs(files) do
  local text = table.concat(vim.fn.readfile(f), "\n")
  local tree = vim.treesitter.get_string_parser(text, "turnscript"):parse()[1]
  if tree:root():has_error() then
    fail(f .. " parses with an error node in Neovim")
  end
end
say("ok: " .. #files .. " bundled files parse with no error node in Neovim")

local parse = vim.treesitter.query.parse or vim.treesitter.query.parse_query
local source = table.concat(vim.fn.readfile("editors/tree-sitter-turnscript/queries/highlights.scm"), "\n")
local query = parse("turnscript", source)

local text = table.concat(vim.fn.readfile("rulesets/crisis-mode.turn"), "\n")
local root = vim.treesitter.get_string_parser(text, "turnscript"):parse()[1]:root()
local seen = {}
for id, _ in query:iter_captures(root, text, 0, -1) do
  seen[query.captures[id]] = true
end
for _, want in ipairs({ "keyword", "type.definition", "property", "comment", "number", "variable" }) do
  if not seen[want] then
    fail("the highlight query captures no @" .. want .. " in rulesets/crisis-mode.turn")
  end
end
say("ok: queries/highlights.scm compiles in Neovim and captures keywords, definitions, fields, comments")
vim.cmd("qall!")
