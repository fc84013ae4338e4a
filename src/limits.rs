//! Every safety bound in one place. Each is reported as a diagnostic, never a panic.

/// Largest source file accepted, in bytes.
pub const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;
/// Deepest nesting of `{}` and `()` accepted by the parser.
pub const MAX_NESTING: usize = 64;
/// Most binary operators in one expression.
pub const MAX_EXPR_OPERATORS: usize = 256;
/// Most `-`/`not` in a row.
pub const MAX_PREFIX_CHAIN: usize = 16;
/// Most dice in one dice expression.
pub const MAX_DICE: u32 = 1000;
/// Most sides on one die.
pub const MAX_SIDES: u32 = 1_000_000;
/// Default step budget of one run (`--max-steps`).
pub const DEFAULT_MAX_STEPS: u64 = 1_000_000;
/// Iterations of the outermost level a run makes when neither the ruleset nor `--until` ends it.
pub const DEFAULT_OUTER_LIMIT: u64 = 10;
/// Most characters in one encounter.
pub const MAX_CHARACTERS: usize = 10_000;
/// Most entities in one run: those declared plus every one `create` makes.
pub const MAX_ENTITIES: usize = 1_000_000;
/// Most rolls of one tied group in an "until settled" tie-break before it is reported as a runaway.
pub const MAX_TIE_ROLLS: u32 = 1000;
/// How deeply actions and hooks may nest (a reaction inside an action inside a reaction ...).
pub const MAX_CALL_DEPTH: u32 = 64;
/// The most arguments a trigger may take.
pub const MAX_TRIGGER_ARGS: usize = 8;
/// How deeply blocks may nest while running, counting through actions and hooks.
pub const MAX_RUN_NESTING: u32 = 1024;
/// The stack the interpreter runs on: enough for MAX_RUN_NESTING nested blocks in a debug build.
pub const RUN_STACK_BYTES: usize = 256 * 1024 * 1024;
/// The longest chain of params using params (checked, so evaluation cannot recurse deeper).
pub const MAX_PARAM_DEPTH: usize = 256;

/// Answers refused in a row at one decision before the run stops (`run::refused`): each refused
/// answer is traced and the decision asked again.
pub const MAX_REFUSALS: usize = 1000;
/// The most digits a number keeps after its point (`decimals N`, `5.75`).
pub const MAX_DECIMALS: u8 = 6;
