//! The command line's work behind `main.rs`'s dispatch: each command's shell.

#[cfg(feature = "bench")]
pub mod bench;
pub mod demo;
pub mod net;

/// Writes to standard output; a reader that went away (`| head`) is not an error.
pub fn emit(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// When the process started (as near as `main` knows).
pub fn started() -> std::time::Instant {
    *STARTED.get_or_init(std::time::Instant::now)
}

pub static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
