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

/// Writes to standard output, [`printable`]; a reader that went away (`| head`) is
/// not an error.
pub fn emit(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stdout()
        .lock()
        .write_all(printable(text).as_bytes());
}

/// `text` as it may reach a terminal. The other player's words (why it left, why it
/// cannot go on, a refusal's detail) and a transcript's are not ours: an escape
/// sequence among them could rewrite what the screen shows, a line's verdict
/// included, or set the terminal's title. Every control character but the line
/// break and the tab, and every mark that reorders text, is shown as its code
/// (`\u{1b}`); all other text, any script, is left as it is.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(hidden) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if hidden(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
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

#[cfg(test)]
mod tests {
    /// Regression: the other player's words went to the terminal as they came, so an
    /// escape sequence in a leave's reason could clear the screen, forge a verdict
    /// line or retitle the window.
    #[test]
    fn escape_sequences_and_reordering_marks_reach_the_terminal_as_codes() {
        let said = "left: \x1b]0;pwned\x07\x1b[2Jverdict: you lose\u{202e}cba\r\n";
        let shown = super::printable(said);
        assert_eq!(
            shown,
            "left: \\u{1b}]0;pwned\\u{7}\\u{1b}[2Jverdict: you lose\\u{202e}cba\\u{d}\n"
        );
        // Ordinary text in any script passes whole, line breaks and tabs too.
        let words = "ваш хід: G7 — влучив\n\tваш ход";
        assert!(matches!(
            super::printable(words),
            std::borrow::Cow::Borrowed(w) if w == words
        ));
    }
}
