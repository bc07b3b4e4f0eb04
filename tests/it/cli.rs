//! The `armada` binary as a user runs it.

use std::process::Command;

fn armada(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_armada"))
        .args(args)
        .output()
        .expect("armada runs")
}

#[test]
fn demo_plays_a_whole_game_through_two_sessions_and_saves_a_verifiable_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo.armada");
    let out = armada(&[
        "demo",
        "--seed",
        "7",
        "--transcript",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("sank the whole enemy fleet"), "{text}");
    assert!(text.contains("Both reveals check out"), "{text}");
    assert!(text.contains("The host's sea") && text.contains("The guest's sea"));
    // The loser's board shows all twenty decks as wrecks; the winner's has some afloat.
    let wrecks: Vec<usize> = text
        .split("sea, as the")
        .skip(1)
        .map(|board| board.split("\n\n").next().unwrap().matches('X').count())
        .collect();
    assert_eq!(wrecks.len(), 2);
    assert!(
        wrecks.contains(&20) && wrecks.iter().any(|&n| n < 20),
        "{wrecks:?}"
    );

    let verified = armada(&["verify", path.to_str().unwrap()]);
    assert_eq!(
        verified.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&verified.stdout)
    );
    let verified = String::from_utf8(verified.stdout).unwrap();
    assert!(verified.ends_with("verdict: complete and honest\n"));
    // The demo's host starts its game without the move timer (its Start says so).
    assert!(
        verified.starts_with("Game 1 (Armada), the host moves first, without the move timer\n"),
        "{verified}"
    );
    let json = armada(&["verify", "--json", path.to_str().unwrap()]);
    let record: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(record["schema"], "armada-game-record/4");
    assert_eq!(record["games"][0]["kind"], "Armada");
    assert_eq!(record["settings"]["kind"], "Armada");
    let id = record["games"][0]["id"].as_str().unwrap();
    assert!(
        id.len() == 64 && hex::decode(id).is_ok(),
        "the game's id: {id}"
    );
    assert_eq!(record["verdict"]["status"], "honest");
    assert_eq!(record["games"][0]["timer"], false);
    assert!(
        record["settings"].get("timer").is_none(),
        "a game's, not the table's"
    );
    assert_eq!(
        record["games"][0]["fleets"]["host"]
            .as_array()
            .unwrap()
            .len(),
        10
    );
    assert!(record["games"][0]["moves"].as_array().unwrap().len() > 20);
}

/// Regression: `demo --game archimedes` refused `--transcript` ("nothing in it is
/// hidden"); now two sessions sign the demo's moves and the record verifies, and the
/// demo and `verify` name the end in the same words.
#[test]
fn an_archimedes_demo_saves_a_signed_transcript_that_verifies_as_it_played() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("archimedes.armada");
    let path = path.to_str().unwrap();
    let out = armada(&[
        "demo",
        "--game",
        "archimedes",
        "--size",
        "6",
        "--seed",
        "3",
        "--transcript",
        path,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let result = text
        .lines()
        .find(|l| l.contains(" moves; ships left"))
        .unwrap_or_else(|| panic!("no result line: {text}"));
    let ending = result.split(';').next().unwrap();
    assert!(text.contains("Transcript saved to"), "{text}");
    let verified = armada(&["verify", path]);
    assert_eq!(verified.status.code(), Some(0));
    let verified = String::from_utf8(verified.stdout).unwrap();
    assert!(
        verified.ends_with("verdict: complete and honest\n"),
        "{verified}"
    );
    // "x (easy) wins: …" or "a draw: …" in the demo; "the host wins: …" in verify.
    let why = ending.split(": ").nth(1).unwrap();
    assert!(
        verified.contains(&format!(": {why}\n")),
        "the demo says {ending:?}; verify: {verified}"
    );
}

#[test]
fn a_classic_demo_repeats_with_its_seed() {
    // Without weapons no shared randomness is drawn, so the seed fixes the whole game.
    let first = armada(&["demo", "--seed", "7", "--classic"]);
    let second = armada(&["demo", "--seed", "7", "--classic"]);
    assert!(first.status.success());
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn verify_names_a_lie_with_exit_code_1() {
    let mut duel = crate::liar::Duel::new(
        armada::rules::Variant::Armada,
        crate::support::fleet(armada::rules::Variant::Armada, crate::support::FLEET),
        crate::support::fleet(armada::rules::Variant::Armada, crate::support::FLEET),
        crate::liar::Cheat::MissOnDeck,
    );
    duel.host("A1");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lie.armada");
    std::fs::write(&path, duel.host.table().transcript_file()).unwrap();
    let out = armada(&["verify", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("verdict: lie proven: the guest lied in message 3: the opening of A1 does not match the committed fleet"),
        "{text}"
    );
}

#[test]
fn verify_refuses_a_file_that_is_no_transcript_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("junk");
    std::fs::write(&path, b"this is not a game").unwrap();
    let out = armada(&["verify", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("unreadable: the message is malformed: not an Armada transcript")
    );
    // A file larger than any transcript is refused after the limit, not read whole:
    // /dev/zero never ends.
    let endless = armada(&["verify", "/dev/zero"]);
    assert_eq!(endless.status.code(), Some(2));
    let said = String::from_utf8(endless.stdout).unwrap();
    assert!(said.contains("the limit of a transcript"), "{said}");
    let missing = armada(&["verify", dir.path().join("absent").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8(missing.stderr)
            .unwrap()
            .contains("cannot read")
    );
}

#[test]
fn classic_demo_on_every_size() {
    for size in ["8", "10", "12"] {
        let out = armada(&["demo", "--seed", "3", "--classic", "--size", size]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.status.success(),
            "{size}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains(&format!("classic {size}×{size}")));
        assert!(
            !text.contains("torpedo") && !text.contains("radar") && !text.contains("air strike")
        );
    }
}

#[test]
fn a_bad_size_is_a_clear_error() {
    let out = armada(&["demo", "--classic", "--size", "9"]);
    assert!(!out.status.success());
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(
        error.contains("classic boards are 8×8, 10×10 or 12×12, not 9×9"),
        "{error}"
    );
}

#[test]
fn resume_names_a_table_id_that_is_not_one_or_not_here() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let offline = ["--no-public", "--no-discovery", "--data-dir", data];
    let resume = |table: &str| {
        let out = armada(&[&["resume", "--table", table][..], &offline[..]].concat());
        assert!(!out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    let error = resume("abc");
    assert!(
        error.contains("\"abc\" is not a table id: one is 64 hex digits"),
        "{error}"
    );
    let error = resume(&"ab".repeat(32));
    assert!(
        error.contains(&format!("there is no saved table {} here", "ab".repeat(32))),
        "{error}"
    );
}

#[test]
fn help_lists_the_commands() {
    let out = armada(&["--help"]);
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("demo"));
}

/// `verify --json` speaks one record for every game: a sea battle's and an
/// Archimedes game's differ only in the sea battle's own fields (its timer and
/// fleets, and what its moves did); the verdict and its ending are the same object.
#[test]
fn the_json_record_of_every_game_has_one_shape() {
    use std::collections::BTreeSet;
    let dir = tempfile::tempdir().unwrap();
    let record = |args: &[&str], name: &str| {
        let path = dir.path().join(name);
        let path = path.to_str().unwrap();
        let mut args = args.to_vec();
        args.extend(["--transcript", path]);
        assert!(armada(&args).status.success());
        let out = armada(&["verify", "--json", path]);
        assert_eq!(out.status.code(), Some(0));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let sea = record(&["demo", "--seed", "5"], "sea.armada");
    let arch = record(
        &["demo", "--game", "archimedes", "--size", "6", "--seed", "3"],
        "arch.armada",
    );
    let keys = |v: &serde_json::Value| -> BTreeSet<String> {
        v.as_object().unwrap().keys().cloned().collect()
    };
    assert_eq!(keys(&sea), keys(&arch), "the records");
    assert_eq!(keys(&sea["settings"]), keys(&arch["settings"]));
    assert_eq!(arch["settings"]["kind"], "archimedes 6×6");
    let (sea_game, arch_game) = (&sea["games"][0], &arch["games"][0]);
    assert_eq!(arch_game["kind"], arch["settings"]["kind"]);
    let own: BTreeSet<String> = ["timer", "fleets"].map(String::from).into();
    assert_eq!(
        keys(sea_game)
            .difference(&own)
            .cloned()
            .collect::<BTreeSet<_>>(),
        keys(arch_game),
        "a game's fields"
    );
    for game in [sea_game, arch_game] {
        let verdict = &game["verdict"];
        assert_eq!(
            keys(verdict),
            ["ending", "status", "winner"].map(String::from).into(),
            "{verdict}"
        );
        assert_eq!(verdict["ending"], game["ending"]);
        assert_eq!(verdict["winner"], game["ending"]["winner"]);
        assert_eq!(
            keys(&game["ending"]),
            ["reason", "winner"].map(String::from).into()
        );
        let reason = game["ending"]["reason"].as_str().unwrap();
        assert!(
            reason.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "a machine-readable reason: {reason}"
        );
        let first = &game["moves"][0];
        assert_eq!(first["number"], 0, "{first}");
        assert_eq!(first["by"], game["first"], "{first}");
        assert!(game["void"].as_array().unwrap().is_empty(), "{game}");
    }
}

#[test]
fn a_data_directory_given_without_a_command_is_the_windows() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // No display here: the window says why it cannot open, after opening its store.
    let out = Command::new(env!("CARGO_BIN_EXE_armada"))
        .args(["--data-dir", data.to_str().unwrap()])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("armada runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no display"),
        "{out:?}"
    );
    assert!(data.join("tables").is_dir(), "the window's store is there");
    // With a command, the command's own `--data-dir` is the one to use.
    let out = armada(&["--data-dir", data.to_str().unwrap(), "verify", "x"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot be used with"),
        "{out:?}"
    );
}

/// What a package installs is written by the binary from its own command
/// definitions: the version names the protocol, the completions name every command,
/// and the manual has a page for the program and one for each command.
#[test]
fn the_version_completions_and_manual_pages_come_from_the_binary() {
    let out = armada(&["--version"]);
    let version = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        version.trim(),
        format!(
            "armada {} (protocol {})",
            env!("CARGO_PKG_VERSION"),
            armada_proto::PROTOCOL_VERSION
        )
    );
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef armada"),
        ("fish", "complete -c armada"),
    ] {
        let out = armada(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains(marker), "{shell}: {script}");
        for command in ["host", "join", "verify", "demo"] {
            assert!(script.contains(command), "{shell} completes {command}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let man = dir.path().join("man");
    let out = armada(&["man", man.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(man.join("armada.1")).unwrap();
    assert!(
        page.starts_with(".ie \\n(.g .ds Aq") || page.contains(".TH armada 1"),
        "{page}"
    );
    assert!(page.contains("verify"), "{page}");
    let verify = std::fs::read_to_string(man.join("armada-verify.1")).unwrap();
    assert!(verify.contains("Exit codes"), "{verify}");
    let out = armada(&["completions", "tcsh"]);
    assert!(!out.status.success(), "an unknown shell is refused");
}

#[test]
fn an_icehouse_demo_plays_two_captains_turn_by_turn_to_an_end() {
    for goal in ["sink", "flagship", "breakthrough"] {
        let out = armada(&[
            "demo",
            "--game",
            "icehouse",
            "--seed",
            "4",
            "--goal",
            goal,
            "--match",
            "hard:medium",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.starts_with("Icehouse Armada, seed 4: hard (heavy 4L 0M 0S"),
            "{text}"
        );
        assert!(text.contains("\nTurn 1 (south):\n"), "{goal}");
        assert!(
            text.contains("+  north\n") && text.contains("+  south\n"),
            "the table's sketch"
        );
        let last = text.lines().last().unwrap();
        assert!(
            last.contains(" wins: ") || last.starts_with("a draw: "),
            "{goal}: {last}"
        );
        // The same seed plays the same game.
        let again = armada(&[
            "demo",
            "--game",
            "icehouse",
            "--seed",
            "4",
            "--goal",
            goal,
            "--match",
            "hard:medium",
        ]);
        assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
    }
    // The same game signed by two sessions in memory: a transcript verify reads.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("icehouse.armada");
    let out = armada(&[
        "demo",
        "--game",
        "icehouse",
        "--seed",
        "4",
        "--goal",
        "flagship",
        "--transcript",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = armada(&["verify", path.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("Game 1 (Icehouse Armada)"), "{text}");
    assert!(text.ends_with("verdict: complete and honest\n"), "{text}");
}
