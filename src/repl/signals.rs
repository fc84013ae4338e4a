//! SIGTERM and SIGHUP in the piped REPL: whatever the REPL has answered is in the autosave when it
//! ends. The two signals are blocked in every thread and waited for on a thread of their own
//! (`sigwait`: no handler, no unsafe code). While the REPL waits for input everything is already
//! written, so the watcher ends the process at once; while a command runs it raises a flag, and
//! the REPL stops after that command's answer, writing what the autosave lacks. The exit status
//! is 128 + the signal's number, as a shell reports a process the signal ended.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The signal received (its number), 0 for none.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The REPL waits for input: every command answered is written.
static IDLE: AtomicBool = AtomicBool::new(false);

/// Starts watching for SIGTERM and SIGHUP; call it before any other thread starts (threads
/// started later inherit the blocked signals). Where it cannot start, they keep their default
/// action.
pub fn watch() {
    #[cfg(unix)]
    {
        use nix::sys::signal::{SigSet, Signal};
        let mut set = SigSet::empty();
        set.add(Signal::SIGTERM);
        set.add(Signal::SIGHUP);
        if set.thread_block().is_err() {
            return;
        }
        let watcher = std::thread::Builder::new()
            .name("turnscript-signals".into())
            .stack_size(64 * 1024)
            .spawn(move || {
                loop {
                    if let Ok(s) = set.wait() {
                        SIGNAL.store(s as i32, Ordering::SeqCst);
                        if IDLE.load(Ordering::SeqCst) {
                            std::process::exit(128 + s as i32);
                        }
                    }
                }
            });
        if watcher.is_err() {
            let _ = set.thread_unblock();
        }
    }
}

/// The REPL is about to wait for input (`true`: everything answered is written) or has stopped
/// waiting (`false`). Returns the exit status if a signal has come: the REPL stops.
pub fn idle(waiting: bool) -> Option<i32> {
    IDLE.store(waiting, Ordering::SeqCst);
    received()
}

/// The exit status (128 + the signal's number) if a signal has come.
pub fn received() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(128 + s),
    }
}
