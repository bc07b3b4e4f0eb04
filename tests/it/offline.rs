//! No script reaches the internet or multicasts outside namespaces of its own: every
//! `armada` it starts is held to that by its arguments or its environment.

use std::path::{Path, PathBuf};

/// The shell scripts that start `armada` processes.
fn scripts() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in ["scripts", "tests/netns"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("the folder is there") {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "sh") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A script's commands: lines joined where they end in a backslash, each with the
/// comment line just above it (empty if none).
fn commands(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut above = String::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if current.is_empty() && trimmed.starts_with('#') {
            trimmed.clone_into(&mut above);
            continue;
        }
        if let Some(start) = trimmed.strip_suffix('\\') {
            current.push_str(start);
            current.push(' ');
            continue;
        }
        current.push_str(trimmed);
        out.push((std::mem::take(&mut current), std::mem::take(&mut above)));
    }
    out
}

/// The `armada` subcommand a command starts, if it starts one.
fn subcommand(command: &str) -> Option<&str> {
    let at = command.find("\"$armada\" ")?;
    command[at + "\"$armada\" ".len()..]
        .split_whitespace()
        .next()
}

#[test]
fn every_armada_a_script_starts_stays_off_the_internet_and_the_real_lan() {
    let scripts = scripts();
    assert!(scripts.len() >= 6, "found {scripts:?}");
    let mut checked = 0;
    for path in &scripts {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.display().to_string();
        let in_namespaces = name.contains("tests/netns/");
        // Everything the namespace scripts start runs with this in its environment
        // (common.sh exports it).
        let refused_by_env = text.contains("export ARMADA_NO_PUBLIC=1")
            || (in_namespaces && text.contains("common.sh"));
        for (command, above) in commands(&text) {
            let Some(sub) = subcommand(&command) else {
                continue;
            };
            // The commands that open a network node (the others read files or print).
            if !matches!(sub, "host" | "join" | "resume" | "relay" | "lan" | "window") {
                continue;
            }
            checked += 1;
            let has = |flag: &str| command.split_whitespace().any(|w| w == flag);
            if in_namespaces {
                assert!(
                    command.contains("ip netns exec"),
                    "{name}: outside a namespace: {command}"
                );
            } else {
                assert!(
                    sub != "lan",
                    "{name}: a LAN search on the real LAN: {command}"
                );
            }
            let offline = above.starts_with("# offline:");
            if sub == "window" && offline {
                // Plays the computer only: no friend table, so no node at all.
                continue;
            }
            assert!(
                in_namespaces || has("--no-discovery"),
                "{name}: mDNS and UPnP on the real LAN: {command}"
            );
            let public_off = has("--no-public") || has("--bootstrap");
            // The guard's own check: a test build refuses the built-in list.
            let guard = in_namespaces && command.contains("env -u ARMADA_NO_PUBLIC");
            assert!(
                public_off || guard || (refused_by_env && !command.contains("ARMADA_NO_PUBLIC")),
                "{name}: may dial the public network: {command}"
            );
        }
    }
    // The host, join, relay and window commands of the scripts are all there.
    assert!(checked >= 20, "only {checked} commands checked");
}
