//! Archimedes between two `armada` processes on 127.0.0.1 (no discovery): whole
//! tables of computer players over TCP and QUIC, a guest that learns the game from
//! the host, a side killed or crashed mid-game and resumed, and a person typing moves.

use std::path::Path;

use armada::fair::verify::{Outcome, verify};

use crate::net::{
    Bots, Process, both_succeed, crashed_after_send_and_resumed, killed_and_resumed, two_bots_with,
};

/// The one transcript saved in `data`, verified: honest, Archimedes, `games` games
/// each with a settled verdict and at least one move.
fn assert_honest_archimedes(data: &Path, games: usize) {
    let tables = data.join("tables");
    let files: Vec<_> = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "armada"))
        .collect();
    assert_eq!(files.len(), 1, "one table saved in {}", tables.display());
    let report = verify(&std::fs::read(&files[0]).unwrap());
    assert_eq!(report.outcome, Outcome::Honest, "{}", report.to_text());
    assert!(report.games.is_empty(), "no sea battle at this table");
    assert_eq!(report.archimedes.len(), games, "{}", report.to_text());
    for game in &report.archimedes {
        assert!(!game.moves.is_empty(), "game {} has moves", game.number);
        assert!(game.verdict.is_some(), "game {} is settled", game.number);
    }
}

/// A medium host on a 6×6 board and an easy guest, two games; the guest is not
/// told the game: the host's settings say it.
const ARCHIMEDES: Bots = Bots {
    host: &[
        "--game",
        "archimedes",
        "--size",
        "6",
        "--bot",
        "medium",
        "--games",
        "2",
    ],
    guest: &["--bot", "easy", "--games", "2"],
    honest: |data| assert_honest_archimedes(data, 2),
};

fn bot_table(listen: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (host, guest, host_data, guest_data) =
        two_bots_with(&ARCHIMEDES, dir.path(), listen, [&[], &[]]);
    assert!(
        guest.wait_for("game 1 started"),
        "the guest plays the host's game"
    );
    assert!(guest.wait_for("game 2 started"), "and plays again");
    both_succeed(guest, host);
    assert_honest_archimedes(&host_data, 2);
    assert_honest_archimedes(&guest_data, 2);
}

#[test]
fn two_processes_play_a_whole_archimedes_table_over_tcp() {
    bot_table("/ip4/127.0.0.1/tcp/0");
}

#[test]
fn two_processes_play_a_whole_archimedes_table_over_quic() {
    bot_table("/ip4/127.0.0.1/udp/0/quic-v1");
}

#[test]
fn an_archimedes_side_killed_mid_game_resumes_and_the_table_finishes() {
    killed_and_resumed(&ARCHIMEDES, "guest", "game 1 started");
    killed_and_resumed(&ARCHIMEDES, "host", "game 1 started");
    killed_and_resumed(&ARCHIMEDES, "guest", "they: ");
}

#[test]
fn an_archimedes_side_dying_right_after_a_send_resumes_and_the_table_finishes() {
    // At the start of the first game, and further on.
    crashed_after_send_and_resumed(&ARCHIMEDES, "guest", 2);
    crashed_after_send_and_resumed(&ARCHIMEDES, "host", 5);
    crashed_after_send_and_resumed(&ARCHIMEDES, "guest", 9);
}

#[test]
fn a_person_at_the_terminal_plays_archimedes_by_typed_moves() {
    let dir = tempfile::tempdir().unwrap();
    let listen = "/ip4/127.0.0.1/tcp/0";
    let host = Process::start(
        &[
            "host",
            "--game",
            "archimedes",
            "--size",
            "6",
            "--bot",
            "hard",
            "--listen",
            listen,
        ],
        &dir.path().join("host"),
    );
    let link = host.line_starting("armada://join/");
    let mut guest = crate::net::Typist::join(&link, listen, &dir.path().join("guest"));
    guest.wait("moves: B1-B4");
    guest.wait("game 1 started");
    // The host's computer moves first; then the person's move, and its time.
    guest.wait("your move; 60 s on the clock; your ships are o");
    // A word the table does not know is answered, and changes nothing.
    guest.say("sideways");
    // The person resigns; the host wins, and both leave.
    guest.say("resign");
    guest.wait("verdict: the host wins: the guest resigned");
    let (success, stderr) = guest.finish();
    assert!(stderr.contains("a move is two cells"), "{stderr}");
    assert!(success, "{stderr}");
    let (code, host_err) = host.finish();
    assert_eq!(code, 0, "{host_err}");
}

/// A person coming back to a table is shown where the game stands and whose move it
/// is at once, not only after the next move.
#[test]
fn a_person_resuming_is_shown_the_board_and_whose_move() {
    let dir = tempfile::tempdir().unwrap();
    let listen = "/ip4/127.0.0.1/tcp/0";
    let host = Process::start(
        &[
            "host",
            "--game",
            "archimedes",
            "--size",
            "6",
            "--bot",
            "easy",
            "--listen",
            listen,
        ],
        &dir.path().join("host"),
    );
    let link = host.line_starting("armada://join/");
    let data = dir.path().join("guest");
    let mut guest = crate::net::Typist::join(&link, listen, &data);
    guest.wait("game 1 started");
    guest.wait("your move; ");
    guest.kill();
    let mut back = crate::net::Typist::resume(listen, &data);
    // While the host is not back yet, the wait says whose clock runs, as the status
    // after it does (whose move it is depends on how far the kill let the guest get).
    let waiting = back.line_starting("waiting for the other player to come back");
    let status = back.line_starting("; your ships are o");
    assert_eq!(
        waiting.contains("your move meanwhile"),
        status.starts_with("your move"),
        "{waiting:?} then {status:?}"
    );
    if !status.starts_with("your move") {
        back.wait("your move; ");
    }
    back.say("resign");
    back.wait("verdict: the host wins: the guest resigned");
    let (success, stderr) = back.finish();
    assert!(success, "{stderr}");
    let (code, host_err) = host.finish();
    assert_eq!(code, 0, "{host_err}");
}

#[test]
fn a_guest_whose_level_the_game_lacks_says_so_and_the_host_is_told_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let listen = "/ip4/127.0.0.1/tcp/0";
    // The longest grace: only being told lets the host end within the minute.
    let host = Process::start(
        &[
            "host",
            "--game",
            "archimedes",
            "--size",
            "6",
            "--bot",
            "hard",
            "--grace",
            "600",
            "--listen",
            listen,
        ],
        &dir.path().join("host"),
    );
    let link = host.line_starting("armada://join/");
    // `random` is a sea battle's level only: the guest learns the game, then declines.
    let guest = Process::start(
        &["join", &link, "--bot", "random", "--listen", listen],
        &dir.path().join("guest"),
    );
    let (code, stderr) = guest.finish();
    assert_ne!(code, 0);
    assert!(stderr.contains("this table plays Archimedes"), "{stderr}");
    assert!(
        host.wait_for("the other player is gone"),
        "the host was told"
    );
    let (code, _) = host.finish_within(std::time::Duration::from_mins(1));
    assert_eq!(code, 1, "a table that never played a game is not finished");
    // A level neither game has is refused before anything is sent.
    let typo = Process::start(
        &["join", &link, "--bot", "hardest", "--listen", listen],
        &dir.path().join("typo"),
    );
    let (code, stderr) = typo.finish();
    assert_ne!(code, 0);
    assert!(stderr.contains("is not a computer level"), "{stderr}");
    assert!(
        !dir.path().join("typo").join("tables").exists(),
        "nothing saved"
    );
}
