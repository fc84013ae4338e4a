//! Every safety bound in one place: one [`Limits`] value, [`Limits::DEFAULT`], whose fields are
//! documented with their defaults (and listed, with their flags, in `docs/limits.md`). Hitting a
//! bound is a diagnostic, never a panic. The constants below name the fields of the default for
//! the code that checks them.

/// Every bound turnscript applies to its input and to a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest source file read (a ruleset, an encounter, a saved session), in bytes. Files are
    /// read as a stream and the read stops at this bound. It also bounds what checking a file
    /// costs: every input this size checks in well under 100 MB (docs/performance.md).
    pub source_bytes: usize,
    /// Largest answers file read (`--answers`), in bytes, read the same way.
    pub answers_bytes: usize,
    /// Largest saved REPL session read (`load`), in bytes, read the same way.
    pub session_bytes: usize,
    /// Most answer lines in an answers file.
    pub answer_lines: usize,
    /// Most diagnostics reported for one file; past it, one line says how many more there were.
    pub diagnostics_per_file: usize,
    /// Most characters of user text a diagnostic quotes (a token, a command, a line).
    pub quoted_chars: usize,
    /// Longest name compared for "did you mean" suggestions.
    pub suggest_name_chars: usize,
    /// Letter comparisons one check spends on "did you mean" suggestions in all; past it,
    /// unknown names get no suggestion (a file of a million unknown names checks fast).
    pub suggest_work: u64,
    /// Largest definition pending in the REPL (lines typed inside an unclosed `{`), in bytes.
    pub repl_definition_bytes: usize,
    /// Longest line of REPL input, in bytes.
    pub repl_line_bytes: usize,
    /// Deepest nesting of `{}` and `()` accepted by the parser; apart, of `if`s and quantifiers
    /// inside one another (`syntax::parser::bounds::check_nesting` counts them).
    pub nesting: usize,
    /// Most binary operators in one expression.
    pub expr_operators: usize,
    /// Most `-`/`not` in a row.
    pub prefix_chain: usize,
    /// Most dice in one dice expression.
    pub dice: u32,
    /// Most sides on one die.
    pub sides: u32,
    /// Most extra dice that exploding dice (`d6!`) add to one roll.
    pub explosions: u32,
    /// Most faces held in dice pools (`roll DICE as p`) at once, over every block running.
    pub pool_faces: usize,
    /// Default step budget of one run (`--max-steps`). A step is a statement, or an element a
    /// quantifier, a loop or a sort visits, or a card a shuffle moves or a card statement looks
    /// at in a pile.
    pub steps: u64,
    /// Iterations of the outermost level a run makes when neither the ruleset nor `--until`
    /// ends it.
    pub outer_iterations: u64,
    /// Most characters in one encounter.
    pub characters: usize,
    /// Most characters in one group (`character N × NAME { ... }`).
    pub group_members: usize,
    /// Most entities in one run: those declared plus every one `create` makes.
    pub entities: usize,
    /// Most rolls of one tied group in an "until settled" tie-break.
    pub tie_rolls: u32,
    /// Most changes waiting for the end of a moment or a level's iteration (`at end of ...`).
    pub deferred: usize,
    /// How deeply actions and hooks may nest.
    pub call_depth: u32,
    /// The most arguments a trigger may take.
    pub trigger_args: usize,
    /// How deeply blocks may nest while running, counting through actions and hooks.
    pub run_nesting: u32,
    /// The stack the interpreter runs on, in bytes.
    pub run_stack_bytes: usize,
    /// The longest chain of params using params.
    pub param_depth: usize,
    /// Answers refused in a row at one decision, and attempts made at one moment, before the run
    /// stops.
    pub refusals: usize,
    /// The most digits a number keeps after its point.
    pub decimals: u8,
    /// The most responses armed by `ready` at once (every owner's together).
    pub armed_responses: usize,
    /// The most cards in one deck, and in all the decks of one make (`decks`, `one per`).
    pub deck_cards: usize,
    /// The most ranks one run (`2 to 10`) of a deck's ranks makes.
    pub rank_run: i64,
    /// The most cards in all the decks of a run together (the ruleset's, the encounter's and
    /// those made from the cast): a card is an entity, and each costs about a kilobyte to check,
    /// so that a file dense in other things and in cards still checks under 100 MB.
    pub deck_cards_total: usize,
    /// The most bins a histogram of `sim` keeps for one measure: one per distinct value while
    /// there are no more, else bins of equal width (a power of two) that fit, so that memory
    /// does not grow with the number of encounters.
    pub sim_bins: usize,
    /// The most worker threads `sim` starts, whatever `--threads` asks (it is also held to the
    /// machine's cores): each worker reserves a run stack of `run_stack_bytes`.
    pub sim_threads: usize,
    /// Largest shard report `sim merge` reads (the JSON of `sim --shard I/K`), in bytes, read as
    /// a stream like a source file.
    pub sim_report_bytes: usize,
    /// The most folder entries the language server looks at to find the encounters of a
    /// ruleset (rename and references reach them).
    pub workspace_entries: usize,
    /// Largest message the language server reads, in bytes (its `Content-Length`): one above
    /// it is refused and its body skipped unread, never held. It is above any document within
    /// `source_bytes`, even one whose every character is escaped in JSON (6 bytes each).
    pub lsp_message_bytes: usize,
    /// Longest header line of a language server message (`Content-Length: N`), in bytes.
    pub lsp_header_bytes: usize,
    /// `turnscript serve`: the largest head of a request (its first line and headers), in bytes.
    pub http_head_bytes: usize,
    /// `turnscript serve`: the most headers in a request.
    pub http_headers: usize,
    /// `turnscript serve`: the largest body of a request (a command, a ruleset to open), in bytes.
    pub http_body_bytes: usize,
    /// `turnscript serve`: the most connections open at once (each open page holds one for its
    /// live updates).
    pub http_connections: usize,
    /// `turnscript serve`: the most pages following the table at once (event streams), fewer
    /// than the connections so that commands always find one.
    pub http_streams: usize,
}

impl Limits {
    /// The bounds every command uses unless a flag says otherwise.
    pub const DEFAULT: Limits = Limits {
        source_bytes: 512 * 1024,
        answers_bytes: 4 * 1024 * 1024,
        session_bytes: 16 * 1024 * 1024,
        answer_lines: 100_000,
        diagnostics_per_file: 100,
        quoted_chars: 80,
        suggest_name_chars: 64,
        suggest_work: 20_000_000,
        repl_definition_bytes: 64 * 1024,
        repl_line_bytes: 64 * 1024,
        nesting: 64,
        expr_operators: 256,
        prefix_chain: 16,
        dice: 1000,
        sides: 1_000_000,
        explosions: 1000,
        pool_faces: 100_000,
        steps: 1_000_000,
        outer_iterations: 10,
        characters: 10_000,
        group_members: 100,
        entities: 1_000_000,
        tie_rolls: 1000,
        deferred: 100_000,
        call_depth: 64,
        armed_responses: 256,
        trigger_args: 8,
        run_nesting: 1024,
        run_stack_bytes: 256 * 1024 * 1024,
        param_depth: 256,
        refusals: 1000,
        decimals: 6,
        deck_cards: 10_000,
        rank_run: 1000,
        deck_cards_total: 10_000,
        sim_threads: 64,
        sim_bins: 4096,
        sim_report_bytes: 64 * 1024 * 1024,
        workspace_entries: 20_000,
        lsp_message_bytes: 16 * 1024 * 1024,
        lsp_header_bytes: 1024,
        http_head_bytes: 16 * 1024,
        http_headers: 64,
        http_body_bytes: 1024 * 1024,
        http_connections: 64,
        http_streams: 32,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// [`Limits::source_bytes`].
pub const MAX_SOURCE_BYTES: usize = Limits::DEFAULT.source_bytes;
/// [`Limits::answers_bytes`].
pub const MAX_ANSWERS_BYTES: usize = Limits::DEFAULT.answers_bytes;
/// [`Limits::sim_report_bytes`].
pub const MAX_SIM_REPORT_BYTES: usize = Limits::DEFAULT.sim_report_bytes;
/// [`Limits::session_bytes`].
pub const MAX_SESSION_BYTES: usize = Limits::DEFAULT.session_bytes;
/// [`Limits::answer_lines`].
pub const MAX_ANSWER_LINES: usize = Limits::DEFAULT.answer_lines;
/// [`Limits::diagnostics_per_file`].
pub const MAX_DIAGNOSTICS_PER_FILE: usize = Limits::DEFAULT.diagnostics_per_file;
/// [`Limits::quoted_chars`].
pub const MAX_QUOTED_CHARS: usize = Limits::DEFAULT.quoted_chars;
/// [`Limits::suggest_work`].
pub const MAX_SUGGEST_WORK: u64 = Limits::DEFAULT.suggest_work;
/// [`Limits::suggest_name_chars`].
pub const MAX_SUGGEST_NAME_CHARS: usize = Limits::DEFAULT.suggest_name_chars;
/// [`Limits::repl_definition_bytes`].
pub const MAX_REPL_DEFINITION_BYTES: usize = Limits::DEFAULT.repl_definition_bytes;
/// [`Limits::repl_line_bytes`].
pub const MAX_REPL_LINE_BYTES: usize = Limits::DEFAULT.repl_line_bytes;
/// [`Limits::nesting`].
pub const MAX_NESTING: usize = Limits::DEFAULT.nesting;
/// [`Limits::expr_operators`].
pub const MAX_EXPR_OPERATORS: usize = Limits::DEFAULT.expr_operators;
/// [`Limits::prefix_chain`].
pub const MAX_PREFIX_CHAIN: usize = Limits::DEFAULT.prefix_chain;
/// [`Limits::dice`].
pub const MAX_DICE: u32 = Limits::DEFAULT.dice;
/// [`Limits::sides`].
pub const MAX_SIDES: u32 = Limits::DEFAULT.sides;
/// [`Limits::explosions`].
pub const MAX_EXPLOSIONS: u32 = Limits::DEFAULT.explosions;
/// [`Limits::pool_faces`].
pub const MAX_POOL_FACES: usize = Limits::DEFAULT.pool_faces;
/// [`Limits::steps`].
pub const DEFAULT_MAX_STEPS: u64 = Limits::DEFAULT.steps;
/// [`Limits::outer_iterations`].
pub const DEFAULT_OUTER_LIMIT: u64 = Limits::DEFAULT.outer_iterations;
/// [`Limits::characters`].
pub const MAX_CHARACTERS: usize = Limits::DEFAULT.characters;
/// [`Limits::group_members`].
pub const MAX_GROUP: usize = Limits::DEFAULT.group_members;
/// [`Limits::entities`].
pub const MAX_ENTITIES: usize = Limits::DEFAULT.entities;
/// [`Limits::tie_rolls`].
pub const MAX_TIE_ROLLS: u32 = Limits::DEFAULT.tie_rolls;
/// [`Limits::armed_responses`].
pub const MAX_ARMED: usize = Limits::DEFAULT.armed_responses;
/// [`Limits::deferred`].
pub const MAX_DEFERRED: usize = Limits::DEFAULT.deferred;
/// [`Limits::call_depth`].
pub const MAX_CALL_DEPTH: u32 = Limits::DEFAULT.call_depth;
/// [`Limits::trigger_args`].
pub const MAX_TRIGGER_ARGS: usize = Limits::DEFAULT.trigger_args;
/// [`Limits::run_nesting`].
pub const MAX_RUN_NESTING: u32 = Limits::DEFAULT.run_nesting;
/// [`Limits::run_stack_bytes`].
pub const RUN_STACK_BYTES: usize = Limits::DEFAULT.run_stack_bytes;
/// [`Limits::param_depth`].
pub const MAX_PARAM_DEPTH: usize = Limits::DEFAULT.param_depth;
/// [`Limits::refusals`].
pub const MAX_REFUSALS: usize = Limits::DEFAULT.refusals;
/// [`Limits::decimals`].
pub const MAX_DECIMALS: u8 = Limits::DEFAULT.decimals;
/// [`Limits::deck_cards`].
pub const MAX_DECK_CARDS: usize = Limits::DEFAULT.deck_cards;
/// [`Limits::rank_run`].
pub const MAX_RANK_RUN: i64 = Limits::DEFAULT.rank_run;
/// [`Limits::deck_cards_total`].
pub const MAX_DECK_CARDS_TOTAL: usize = Limits::DEFAULT.deck_cards_total;

/// [`Limits::sim_threads`].
pub const MAX_SIM_THREADS: usize = Limits::DEFAULT.sim_threads;
/// [`Limits::sim_bins`].
pub const MAX_SIM_BINS: usize = Limits::DEFAULT.sim_bins;
/// [`Limits::workspace_entries`].
pub const MAX_WORKSPACE_ENTRIES: usize = Limits::DEFAULT.workspace_entries;
/// [`Limits::lsp_message_bytes`].
pub const MAX_LSP_MESSAGE_BYTES: usize = Limits::DEFAULT.lsp_message_bytes;
/// [`Limits::lsp_header_bytes`].
pub const MAX_LSP_HEADER_BYTES: usize = Limits::DEFAULT.lsp_header_bytes;

/// [`Limits::http_head_bytes`].
pub const MAX_HTTP_HEAD_BYTES: usize = Limits::DEFAULT.http_head_bytes;
/// [`Limits::http_headers`].
pub const MAX_HTTP_HEADERS: usize = Limits::DEFAULT.http_headers;
/// [`Limits::http_body_bytes`].
pub const MAX_HTTP_BODY_BYTES: usize = Limits::DEFAULT.http_body_bytes;
/// [`Limits::http_connections`].
pub const MAX_HTTP_CONNECTIONS: usize = Limits::DEFAULT.http_connections;
/// [`Limits::http_streams`].
pub const MAX_HTTP_STREAMS: usize = Limits::DEFAULT.http_streams;

/// User text as a diagnostic quotes it: at most [`MAX_QUOTED_CHARS`] characters, then `…`.
pub fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    clip_to(text, MAX_QUOTED_CHARS)
}

/// `text` cut to at most `max` characters, with `…` and the number of bytes left out when cut.
pub fn clip_to(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(text),
        Some((at, _)) => std::borrow::Cow::Owned(format!("{}… ({} more bytes)", &text[..at], text.len() - at)),
    }
}

/// Whether `text` is a whole number (digits, maybe after `-`) that failed to parse: it is too
/// large (or too far below zero) for its type, not malformed.
pub fn too_many_digits(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}
