//! Icehouse Armada between two `armada` processes on 127.0.0.1 (no discovery): whole
//! tables of computer captains, a guest that learns the game from the host, and a
//! side killed between its commitment and its reveal, or mid-game, that resumes —
//! its secret placement kept — and finishes the table.

use std::path::Path;

use armada::fair::verify::{Outcome, verify};

use crate::net::{
    Bots, both_succeed, crashed_after_send_and_resumed, killed_and_resumed, two_bots_with,
};

/// The one transcript saved in `data`, verified: honest, Icehouse, `games` games each
/// settled, each with its placements revealed and actions after them.
fn assert_honest_icehouse(data: &Path, games: usize) {
    let tables = data.join("tables");
    let files: Vec<_> = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "armada"))
        .collect();
    assert_eq!(files.len(), 1, "one table saved in {}", tables.display());
    let report = verify(&std::fs::read(&files[0]).unwrap());
    assert_eq!(report.outcome, Outcome::Honest, "{}", report.to_text());
    assert!(report.games.is_empty() && report.archimedes.is_empty());
    assert_eq!(report.icehouse.len(), games, "{}", report.to_text());
    for game in &report.icehouse {
        assert!(game.moves.len() > 5, "game {} was played", game.number);
        assert!(game.verdict.is_some(), "game {} is settled", game.number);
    }
    assert!(report.to_text().contains("reveals its placement"));
}

/// A medium host (flagship goal, the light squadron) and a hard guest, two games.
const ICEHOUSE: Bots = Bots {
    host: &[
        "--game",
        "icehouse",
        "--goal",
        "flagship",
        "--squadron",
        "light",
        "--bot",
        "medium",
        "--games",
        "2",
    ],
    guest: &["--bot", "hard", "--games", "2"],
    honest: |data| assert_honest_icehouse(data, 2),
};

#[test]
fn two_processes_play_a_whole_icehouse_table_over_tcp() {
    let dir = tempfile::tempdir().unwrap();
    let (host, guest, host_data, guest_data) =
        two_bots_with(&ICEHOUSE, dir.path(), "/ip4/127.0.0.1/tcp/0", [&[], &[]]);
    assert!(
        guest.wait_for("game 1 started"),
        "the guest plays the host's game"
    );
    assert!(guest.wait_for("game 2 started"), "and plays again");
    both_succeed(guest, host);
    assert_honest_icehouse(&host_data, 2);
    assert_honest_icehouse(&guest_data, 2);
}

/// Over QUIC, and both sides' transcripts give one record.
#[test]
fn two_processes_play_a_whole_icehouse_table_over_quic_and_keep_one_record() {
    let dir = tempfile::tempdir().unwrap();
    let (host, guest, host_data, guest_data) = two_bots_with(
        &ICEHOUSE,
        dir.path(),
        "/ip4/127.0.0.1/udp/0/quic-v1",
        [&[], &[]],
    );
    both_succeed(guest, host);
    let [host_record, guest_record] = [&host_data, &guest_data].map(|data| {
        assert_honest_icehouse(data, 2);
        let tables = data.join("tables");
        let file = std::fs::read_dir(&tables)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "armada"))
            .unwrap();
        verify(&std::fs::read(file).unwrap())
    });
    assert_eq!(host_record.icehouse, guest_record.icehouse);
    assert_eq!(host_record.outcome, guest_record.outcome);
}

#[test]
fn an_icehouse_side_killed_after_committing_its_placement_resumes_and_reveals_it() {
    killed_and_resumed(&ICEHOUSE, "guest", "you: placement committed");
    killed_and_resumed(&ICEHOUSE, "host", "you: placement committed");
    killed_and_resumed(&ICEHOUSE, "guest", "placement revealed");
}

/// Killed (SIGKILL) in the middle of the game, after its first moves are played: resumed, it
/// finishes the table and both records are honest.
#[test]
fn an_icehouse_side_killed_mid_game_resumes_and_finishes() {
    killed_and_resumed(&ICEHOUSE, "host", " moves ");
    killed_and_resumed(&ICEHOUSE, "guest", " moves ");
}

/// A side that dies right after its Nth game message (through the choice, the
/// commitments and the reveals of game 1: nothing after the send was saved) resumes
/// and the table finishes honest.
#[test]
fn an_icehouse_side_crashed_right_after_a_placement_step_resumes_and_finishes() {
    for nth in 2..=5 {
        crashed_after_send_and_resumed(&ICEHOUSE, "guest", nth);
        crashed_after_send_and_resumed(&ICEHOUSE, "host", nth);
    }
}

#[test]
fn a_person_at_the_terminal_chooses_places_offers_a_draw_acts_and_resigns_by_typed_words() {
    let dir = tempfile::tempdir().unwrap();
    let listen = "/ip4/127.0.0.1/tcp/0";
    let host = crate::net::Process::start(
        &[
            "host", "--game", "icehouse", "--bot", "hard", "--listen", listen,
        ],
        &dir.path().join("host"),
    );
    let link = host.line_starting("armada://join/");
    let mut guest = crate::net::Typist::join(&link, listen, &dir.path().join("guest"));
    guest.wait("game 1 started: you choose who moves first");
    guest.wait("`second` to let them; 90 s on the clock");
    guest.say("first");
    guest.wait("you move first (south); your ships are the capital letters");
    guest.wait("place your fleet");
    guest.say("place");
    guest.wait("you: placement committed");
    // Both placements revealed: the table is drawn, and the person is asked to act.
    guest.wait("+  south");
    guest.wait("your action: move, fire or end (type help for the forms); 90 s a turn");
    // A draw offer: the computer captain, not behind, declines it at once; a
    // second offer in the turn is refused.
    guest.say("draw");
    guest.wait("you offered a draw");
    guest.wait("they declined the draw");
    guest.say("draw");
    // A point that is no point is answered and changes nothing; then a pass.
    guest.say("move M1 12;4");
    guest.say("end");
    guest.wait("you: the turn ends");
    guest.say("resign");
    guest.wait("verdict: the host wins: the guest resigned");
    let (success, stderr) = guest.finish();
    assert!(stderr.contains("12;4 is not a point"), "{stderr}");
    assert!(stderr.contains("one draw offer a turn"), "{stderr}");
    assert!(success, "{stderr}");
    let (code, host_err) = host.finish();
    assert_eq!(code, 0, "{host_err}");
}

/// The advanced setup (the host's numbers; the guest accepts or swaps) and a
/// breakthrough the guest attacks, played whole between two processes.
#[test]
fn an_advanced_breakthrough_table_is_played_whole_between_two_processes() {
    let table = Bots {
        host: &[
            "--game",
            "icehouse",
            "--setup",
            "advanced",
            "--heavy",
            "2",
            "--light",
            "2,3",
            "--goal",
            "breakthrough",
            "--attacker",
            "guest",
            "--bot",
            "hard",
        ],
        guest: &["--bot", "medium"],
        honest: |data| assert_honest_icehouse(data, 1),
    };
    let dir = tempfile::tempdir().unwrap();
    let (host, guest, host_data, guest_data) =
        two_bots_with(&table, dir.path(), "/ip4/127.0.0.1/tcp/0", [&[], &[]]);
    both_succeed(guest, host);
    for data in [&host_data, &guest_data] {
        assert_honest_icehouse(data, 1);
    }
}

#[test]
fn icehouse_settings_the_rules_do_not_allow_are_refused_before_anything_is_opened() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (
            &["--setup", "advanced", "--heavy", "5"][..],
            "a heavy squadron is 1 to 4 large ships",
        ),
        (
            &["--setup", "advanced", "--light", "0,0"][..],
            "a light squadron is 0 to 4",
        ),
        (
            &["--setup", "points", "--squadron", "light"][..],
            "no --squadron",
        ),
        (
            &["--attacker", "guest"][..],
            "--attacker is for --goal breakthrough",
        ),
        (
            &["--heavy", "2"][..],
            "--heavy and --light are for --setup advanced",
        ),
    ] {
        let mut all = vec![
            "host",
            "--game",
            "icehouse",
            "--no-public",
            "--no-discovery",
        ];
        all.extend_from_slice(args);
        let out = std::process::Command::new(crate::net::ARMADA)
            .args(&all)
            .arg("--data-dir")
            .arg(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let out = std::process::Command::new(crate::net::ARMADA)
        .args([
            "host",
            "--goal",
            "flagship",
            "--no-public",
            "--no-discovery",
        ])
        .arg("--data-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("are for --game icehouse"));
}
