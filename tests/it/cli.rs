//! The `armada` binary as a user runs it.

use std::process::Command;

fn armada(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_armada"))
        .args(args)
        .output()
        .expect("armada runs")
}

#[test]
fn demo_plays_a_whole_game_and_repeats_with_its_seed() {
    let first = armada(&["demo", "--seed", "7"]);
    assert!(first.status.success());
    let text = String::from_utf8(first.stdout).unwrap();
    assert!(text.contains("sank the whole enemy fleet"), "{text}");
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
    let second = armada(&["demo", "--seed", "7"]);
    assert_eq!(text, String::from_utf8(second.stdout).unwrap());
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
fn help_lists_the_commands() {
    let out = armada(&["--help"]);
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("demo"));
}
