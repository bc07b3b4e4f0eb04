//! The plan of STYLE.md and ARCHITECTURE.md, checked: every module's references to
//! the rest of the crate (`crate::…` in the library, `armada::…` in the binary) go
//! only where the plan lets them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each module and the modules it may use. The binary (`main.rs` and `cli/`) is
/// `main`. Dependencies point one way: `rules` ← `fair` ← `session` ← `store` ←
/// `driver` ← (`ui`, `main`); `ai` needs only `rules`; `net` needs nothing of
/// Armada's; `driver` joins them. `demo` (the engine-only referee and the computer
/// duet, for measurement and tests) and `fuzz` (the harnesses, feature `harness`)
/// are scaffolding beside the house.
const ALLOWED: &[(&str, &[&str])] = &[
    ("rules", &[]),
    ("ai", &["rules"]),
    // The second game: its engine and computer share the sea battle's cells.
    ("archimedes", &["rules"]),
    // The third game: exact geometry of its own, nothing of the other games.
    ("icehouse", &[]),
    ("fair", &["rules", "archimedes", "icehouse"]),
    ("session", &["rules", "archimedes", "icehouse", "fair"]),
    // A saved table names the computer's level.
    (
        "store",
        &["rules", "ai", "archimedes", "icehouse", "fair", "session"],
    ),
    ("net", &[]),
    (
        "driver",
        &[
            "rules",
            "ai",
            "archimedes",
            "icehouse",
            "fair",
            "session",
            "store",
            "net",
        ],
    ),
    ("ui", &["rules", "driver"]),
    // The binary opens the window; its bench commands use the engine-only referee.
    (
        "main",
        &["rules", "archimedes", "icehouse", "driver", "ui", "demo"],
    ),
    ("demo", &["rules", "ai", "archimedes"]),
    (
        "fuzz",
        &[
            "rules",
            "ai",
            "archimedes",
            "fair",
            "session",
            "store",
            "driver",
            "demo",
        ],
    ),
];

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The module a source file belongs to (`None` for the library's root).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative.components().next()?.as_os_str().to_str()?;
    match first {
        "lib.rs" => None,
        "main.rs" | "cli" => Some("main".into()),
        name => Some(name.trim_end_matches(".rs").to_owned()),
    }
}

/// The crate's modules a file refers to, by `prefix` (`crate::` or `armada::`),
/// comments left out.
fn references(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            let before = rest[..at].chars().last();
            rest = &rest[at + prefix.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
        // `use crate::{a, b::c}` names several at once.
        if let Some(at) = code.find(&format!("{prefix}{{")) {
            let inside = &code[at + prefix.len() + 1..];
            for part in inside.split([',', '}']) {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.insert(name);
                }
            }
        }
    }
    found
}

/// Every arrow of the code: (module, module it uses) with the files that draw it.
fn arrows() -> BTreeMap<(String, String), Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut arrows: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for file in files {
        let Some(module) = module_of(&src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        let prefix = if module == "main" {
            "armada::"
        } else {
            "crate::"
        };
        for used in references(&text, prefix) {
            if used != module {
                let shown = file.strip_prefix(&src).unwrap().display().to_string();
                arrows
                    .entry((module.clone(), used))
                    .or_default()
                    .push(shown);
            }
        }
    }
    arrows
}

#[test]
fn every_module_uses_only_what_the_plan_allows() {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let arrows = arrows();
    let mut wrong = Vec::new();
    for ((from, to), files) in &arrows {
        let Some(may) = allowed.get(from.as_str()) else {
            wrong.push(format!("{from} is not in the plan (used from {files:?})"));
            continue;
        };
        if !may.contains(&to.as_str()) {
            wrong.push(format!("{from} → {to}, in {}", files.join(", ")));
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows the plan forbids:\n{}",
        wrong.join("\n")
    );
    // The reader is not blind: the arrows the plan rests on are seen.
    for arrow in [
        ("fair", "rules"),
        ("session", "fair"),
        ("driver", "net"),
        ("driver", "session"),
        ("ui", "driver"),
        ("main", "driver"),
    ] {
        assert!(
            arrows.contains_key(&(arrow.0.to_owned(), arrow.1.to_owned())),
            "no arrow {arrow:?} seen: the reader is broken"
        );
    }
}

#[test]
fn the_reader_sees_every_form_of_a_reference() {
    let text = "use crate::rules::Seat;\n\
                use crate::{fair::table::Note, session};\n\
                let x = crate::store::Store::open(None); // crate::net in a comment\n\
                mycrate::ai::Level;\n";
    let found = references(text, "crate::");
    let expected: BTreeSet<String> = ["rules", "fair", "session", "store"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(found, expected);
}
