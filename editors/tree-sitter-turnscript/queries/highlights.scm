; Highlights for turnscript, with the capture names of Neovim (nvim-treesitter) and of the
; tree-sitter CLI (`tree-sitter highlight`). Helix's names are in queries/helix/highlights.scm.

(comment) @comment
(string) @string
(number) @number
(dice) @number
(boolean) @boolean
(none) @constant.builtin

(keyword) @keyword
(declaring_keyword) @keyword
(binding_keyword) @keyword

(declaration
  name: (_) @type.definition)
(binding
  name: (identifier) @variable)

(call
  function: (identifier) @function.call)
(field
  name: (identifier) @property)

(operator) @operator
(punctuation) @punctuation.delimiter
["{" "}" "(" ")" "[" "]"] @punctuation.bracket
