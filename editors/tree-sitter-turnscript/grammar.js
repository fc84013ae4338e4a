// A tree-sitter grammar for turnscript (.turn files): rulesets and encounters.
//
// It is deliberately shallow: it knows the words (keywords, names, numbers, dice, strings,
// comments), the brackets that nest ({}, (), []), the declarations (a declaring keyword and the
// name it declares), the bindings (`for each x`, `let x`, `as x`), calls (`name(` with no space),
// and fields (`c.ap`). It is for highlighting, folding and text objects; which text is a valid
// ruleset is decided by `turnscript check` (grammar/turnscript.pest), not by this grammar, so any
// text whose brackets balance parses without an ERROR node.
//
// KEYWORDS below is src/format/lex.rs's KEYWORDS (less `true`, `false` and `none`, which are
// nodes of their own); tests/editors.rs checks that they agree.

const KEYWORDS = [
  'ruleset', 'encounter', 'param', 'stat', 'resource', 'flag', 'side', 'tag', 'action', 'order',
  'policy', 'default', 'setup', 'play', 'character', 'characters', 'level', 'phase', 'round',
  'turn', 'repeat', 'while', 'until', 'settled', 'for', 'each', 'in', 'where', 'by', 'if',
  'else', 'choose', 'option', 'end', 'because', 'spend', 'gain', 'reset', 'to', 'forfeit', 'set',
  'mark', 'clear', 'costs', 'when', 'per', 'min', 'max', 'roll', 'desc', 'asc', 'not', 'and',
  'or', 'is', 'any', 'all', 'count', 'sum', 'then', 'unit', 'role', 'trigger', 'on', 'start',
  'of', 'kind', 'using', 'from', 'rank', 'transfer', 'raise', 'react', 'elapse', 'global',
  'routine', 'do', 'backwards', 'effect', 'begin', 'counted', 'at', 'stop', 'unless', 'place',
  'first', 'last', 'before', 'after', 'thing', 'create', 'destroy', 'as', 'let', 'remove',
  'measure', 'counting', 'down', 'within', 'most', 'chosen', 'together', 'anew', 'ties',
  'moment', 'absent', 'join', 'leave', 'uses', 'secret', 'forbid', 'attempt', 'out', 'including',
  'swap', 'deck', 'decimals', 'suits', 'ranks', 'jokers', 'shuffle', 'draw', 'discard', 'return',
  'decks', 'no', 'refill', 'one', 'take', 'into', 'pile', 'with', 'reveal', 'revealed', 'next',
  'ready', 'disarm', 'gives', 'give',
];

// The keywords that declare a name (`stat hp`, `character Ana`, `ruleset "Crisis Mode"`).
const DECLARING = [
  'ruleset', 'encounter', 'param', 'stat', 'resource', 'flag', 'global', 'side', 'tag', 'action',
  'kind', 'order', 'policy', 'level', 'phase', 'round', 'character', 'unit', 'role', 'trigger',
  'routine', 'effect', 'thing', 'measure', 'attempt', 'deck', 'forbid',
];

// The keywords that bind a variable (`for each c`, `let x`, `create T as x`).
const BINDING = ['each', 'let', 'as'];

module.exports = grammar({
  name: 'turnscript',

  extras: $ => [/\s/, $.comment],

  word: $ => $.identifier,

  rules: {
    source_file: $ => repeat($._element),

    _element: $ => choice(
      $.declaration,
      $.binding,
      $.block,
      $.parenthesized,
      $.list,
      $.call,
      $.field,
      $.keyword,
      $.boolean,
      $.none,
      $.identifier,
      $.dice,
      $.number,
      $.string,
      $.operator,
      $.punctuation,
    ),

    // `stat hp`, `character "Broo A"`: the declaring keyword is preferred over a plain keyword
    // whenever a name follows it.
    declaration: $ => seq(
      field('kind', $.declaring_keyword),
      field('name', choice($.identifier, $.string)),
    ),
    declaring_keyword: $ => prec(1, choice(...DECLARING)),

    binding: $ => seq(
      field('kind', $.binding_keyword),
      field('name', $.identifier),
    ),
    binding_keyword: $ => prec(1, choice(...BINDING)),

    block: $ => seq('{', repeat($._element), '}'),
    parenthesized: $ => seq('(', repeat($._element), ')'),
    list: $ => seq('[', repeat($._element), ']'),

    // `highest(a, b)`: a name and a `(` with no space between (`highest (a, b)` is two things).
    call: $ => seq(
      field('function', $.identifier),
      field('arguments', alias($._arguments, $.arguments)),
    ),
    _arguments: $ => seq(token.immediate('('), repeat($._element), ')'),

    // `.ap` in `c.ap`, `.number` in `round.number`.
    field: $ => seq(token.immediate('.'), field('name', alias(token.immediate(/[A-Za-z_][A-Za-z0-9_]*/), $.identifier))),

    keyword: $ => choice(...KEYWORDS),
    boolean: $ => choice('true', 'false'),
    none: $ => 'none',

    identifier: $ => /[A-Za-z_][A-Za-z0-9_]*/,

    // `d20`, `2d6`, `4d6kh3`, `d10!`, `d[-1, 0, 1]`; the dice whose parts are computed
    // (`d(c.die)`, `(n)d6`) read as a call of `d` or a parenthesis and dice.
    dice: $ => token(prec(2, /[0-9]*d([0-9]+|\[[^\]\n]*\])((kh|kl)[0-9]+)?(![0-9]*((kh|kl)[0-9]+)?)?/)),
    number: $ => /[0-9]+(\.[0-9]+)?/,
    string: $ => /"[^"\n]*"/,
    comment: $ => token(seq('#', /.*/)),

    operator: $ => choice('==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '=', '!', '\u00d7'),
    punctuation: $ => choice(',', ':'),
  },
});
