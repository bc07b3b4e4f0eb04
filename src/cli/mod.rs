//! The command line's work behind `main.rs`'s dispatch: each command's shell.

#[cfg(feature = "bench")]
pub mod bench;
#[cfg(feature = "bench")]
pub mod bench_archimedes;
#[cfg(feature = "bench")]
pub mod bench_icehouse;
pub mod demo;
pub mod net;
pub mod report;

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

/// `armada verify`: the record of a transcript file as text or JSON; the exit code.
pub fn verify(file: &std::path::Path, json: bool) -> u8 {
    // No further than one byte past the largest transcript: a larger file (or
    // /dev/zero) is refused as too large, not read into memory whole.
    let limit = armada_proto::MAX_TRANSCRIPT as u64 + 1;
    let read = std::fs::File::open(file).and_then(|f| {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(f, limit), &mut bytes).map(|_| bytes)
    });
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("armada: cannot read {}: {error}", file.display());
            return 2;
        }
    };
    let report = armada::driver::verify::verify(&bytes);
    if json {
        emit(&format!("{:#}\n", report.to_json()));
    } else {
        emit(&report.to_text());
    }
    report.outcome.exit_code()
}
