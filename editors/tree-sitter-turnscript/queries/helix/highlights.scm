; Highlights for turnscript with Helix's scope names (copy to
; ~/.config/helix/runtime/queries/turnscript/highlights.scm; docs/editors.md).

(comment) @comment
(string) @string
(number) @constant.numeric
(dice) @constant.numeric
(boolean) @constant.builtin.boolean
(none) @constant.builtin

(keyword) @keyword
(declaring_keyword) @keyword
(binding_keyword) @keyword

(declaration
  name: (_) @type)
(binding
  name: (identifier) @variable)

(call
  function: (identifier) @function)
(field
  name: (identifier) @variable.other.member)

(operator) @operator
(punctuation) @punctuation.delimiter
["{" "}" "(" ")" "[" "]"] @punctuation.bracket
