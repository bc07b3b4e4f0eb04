//! The edges of a table between friends, against the real binary: a person who
//! leaves mid-game (typing `quit`, or ending the input), a finished table resumed, a
//! taken seat, a closed table. Every such end is prompt, said in one sentence, and
//! leaves both records complete.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use armada::fair::verify::{Outcome, verify};

use crate::net::{ARMADA, Process};
use crate::tables::transcript;

const LISTEN: &str = "/ip4/127.0.0.1/tcp/0";

/// How long an end may take here at most; it takes a few seconds (a slow machine
/// only makes the test wait longer, never fail early).
const PROMPT: Duration = Duration::from_mins(1);

/// `armada join` (or any command) with piped standard input, and its output lines
/// (standard output and error together).
pub(crate) fn person(args: &[&str], data: &Path) -> (Child, mpsc::Receiver<String>) {
    let mut child = Command::new(ARMADA)
        .args(args)
        .args([
            "--listen",
            LISTEN,
            "--no-discovery",
            "--no-public",
            "--data-dir",
        ])
        .arg(data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, lines) = mpsc::channel::<String>();
    for reader in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(reader).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    (child, lines)
}

/// Waits for `child` to exit (at most [`PROMPT`]): its exit code.
fn exit_of(child: &mut Child) -> i32 {
    let start = Instant::now();
    while start.elapsed() < PROMPT {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    panic!("the process did not exit");
}

/// Regression: `quit` in game 2 left it without a result on both records, the host
/// waiting for a reveal that never came.
#[test]
fn a_person_typing_quit_mid_game_resigns_and_both_records_settle() {
    leaving_game_two(Exit::Quit);
}

/// Ctrl-D mid-game: the same leave, said as such.
#[test]
fn the_end_of_input_mid_game_leaves_as_quit_does() {
    leaving_game_two(Exit::EndOfInput);
}

/// A person leaves game 2 a few moves in, and is told what that did.
fn leaving_game_two(exit: Exit) {
    let table = person_leaves(exit, 2, 3);
    assert!(
        table
            .said
            .iter()
            .any(|l| l == "you left the table; a game that was under way is recorded as resigned"),
        "the person is told what leaving did: {:?}",
        table.said
    );
    let reports = table.ends_complete("game two");
    assert_eq!(reports[0].games.len(), 2);
    for report in &reports {
        assert!(report.left[1], "the guest left");
    }
}

/// Leaving after the last verdict resigns nothing, and is not said to.
#[test]
fn leaving_between_games_is_not_said_to_resign_one() {
    let table = person_leaves(Exit::Quit, 1, 4);
    assert!(
        table
            .said
            .iter()
            .any(|l| l.starts_with("you left the table: ")),
        "{:?}",
        table.said
    );
    assert!(
        !table
            .said
            .iter()
            .any(|l| l.contains("recorded as resigned")),
        "{:?}",
        table.said
    );
    table.ends_complete("after game one");
}

/// Regression: resuming a table that is over printed "resuming table …" and waited
/// for good.
#[test]
fn resuming_a_finished_table_says_so_and_exits() {
    let dir = tempfile::tempdir().unwrap();
    let (host_data, guest_data) = (dir.path().join("host"), dir.path().join("guest"));
    let host = Process::start(&["host", "--bot", "easy", "--listen", LISTEN], &host_data);
    let link = host.line_starting("armada://join/");
    let guest = Process::start(
        &["join", &link, "--bot", "easy", "--listen", LISTEN],
        &guest_data,
    );
    crate::net::both_succeed(guest, host);
    for data in [&host_data, &guest_data] {
        let resumed = Process::start(&["resume", "--listen", LISTEN], data);
        assert!(
            resumed.wait_for("is over: the other player left it, so there is nothing to resume"),
            "one sentence says why nothing is resumed"
        );
        let (code, err) = resumed.finish_within(PROMPT);
        assert_eq!(code, 0, "{err}");
    }
}

/// Regression: over QUIC nothing tells the survivor that a killed peer's connection
/// is dead until its idle timeout, and the resumed peer's new stream waited unread
/// until then ("link lost … reconnecting" after 3–15 s). The new stream now replaces
/// the old one as it comes.
#[test]
fn a_guest_resumed_over_quic_is_taken_back_on_its_new_connection_at_once() {
    let bots = &crate::net::SEA;
    let dir = tempfile::tempdir().unwrap();
    let listen = "/ip4/127.0.0.1/udp/0/quic-v1";
    let (host, guest, host_data, guest_data) =
        crate::net::two_bots_with(bots, dir.path(), listen, [&[], &[]]);
    assert!(guest.wait_for("score"), "the guest plays");
    guest.kill();
    let resumed = Process::start(&["resume", "--listen", listen], &guest_data);
    let mut seen = Vec::new();
    let back = loop {
        let line = host
            .lines
            .recv_timeout(PROMPT)
            .unwrap_or_else(|_| panic!("the host went quiet: {seen:?}"));
        if line.contains("the other player is back on a new connection") {
            break true;
        }
        if line.starts_with("link lost") {
            break false;
        }
        seen.push(line);
    };
    assert!(
        back,
        "the host took the new connection, not the idle timeout: {seen:?}"
    );
    crate::net::both_succeed(resumed, host);
    for data in [&host_data, &guest_data] {
        (bots.honest)(data);
    }
}

/// A second guest at a taken seat, an invite whose table is closed, an invite whose
/// address answers as another peer: one sentence each, soon. (Before: a 30 s wait
/// for settings, then a deadline error; libp2p's dial errors, three lines of them.)
#[test]
fn a_taken_seat_a_closed_table_and_a_wrong_peer_are_each_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    // A person hosts and never types: the table stays open, its seat taken.
    let (mut host, host_lines) = person(&["host"], &dir.path().join("host"));
    let link = loop {
        let line = host_lines.recv_timeout(PROMPT).expect("the host's invite");
        if line.starts_with("armada://join/") {
            break line;
        }
    };
    let guest = Process::start(
        &["join", &link, "--bot", "easy", "--listen", LISTEN],
        &dir.path().join("guest"),
    );
    while let Ok(line) = host_lines.recv_timeout(PROMPT) {
        if line.contains("took the guest's seat") {
            break;
        }
    }
    let joins = |what: &str, link: &str, expected: &str| {
        let late = Process::start(
            &["join", link, "--bot", "easy", "--listen", LISTEN],
            &dir.path().join(what),
        );
        let (code, err) = late.finish_within(PROMPT);
        assert_ne!(code, 0, "{what}");
        assert!(err.contains(expected), "{what}: {err}");
        assert!(!err.contains("Dial error"), "{what}: {err}");
    };
    joins("second", &link, "that table already has its guest");
    // The same address, another peer's identity: an invite out of date.
    let mut invite = armada_proto::Invite::parse(&link).unwrap();
    let stranger = libp2p::identity::Keypair::generate_ed25519();
    invite.peer = stranger.public().to_peer_id().to_bytes();
    joins(
        "wrong",
        &invite.to_link(),
        "the address in that invite answers as another peer: the invite is out of date",
    );
    host.kill().unwrap();
    host.wait().unwrap();
    guest.kill();
    joins(
        "closed",
        &link,
        "nobody answers at that invite: the table may be closed",
    );
}

/// Regression: with its meta damaged, plain `armada resume` said there was no table
/// to resume, and the other player waited out the grace. Now the damage is named and
/// the other player told at once, as for a damaged session.
#[test]
fn a_damaged_meta_is_named_by_plain_resume_and_the_other_player_is_told_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (host_data, guest_data) = (dir.path().join("host"), dir.path().join("guest"));
    // The longest grace, ten minutes: only being told lets the host finish at once.
    let host = Process::start(
        &[
            "host", "--bot", "hard", "--grace", "600", "--listen", LISTEN,
        ],
        &host_data,
    );
    let link = host.line_starting("armada://join/");
    let guest = Process::start(
        &["join", &link, "--bot", "easy", "--listen", LISTEN],
        &guest_data,
    );
    assert!(guest.wait_for("air strike"));
    guest.kill();
    let meta = std::fs::read_dir(guest_data.join("tables"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "meta"))
        .unwrap();
    // A change a JSON reader takes without complaint: the count of games.
    let text = std::fs::read_to_string(&meta).unwrap();
    assert!(text.contains("\"games\": 1"), "{text}");
    std::fs::write(&meta, text.replace("\"games\": 1", "\"games\": 2")).unwrap();

    let resumed = Process::start(&["resume", "--listen", LISTEN], &guest_data);
    assert!(
        resumed.wait_for("the other player was told that this table cannot go on"),
        "the resumed guest never reached the host"
    );
    let (code, stderr) = resumed.finish_within(PROMPT);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("is damaged") && stderr.contains(".meta fails its check"),
        "{stderr}"
    );
    assert!(host.wait_for("the other player cannot go on: its saved table is damaged"));
    let (code, stderr) = host.finish_within(PROMPT);
    assert_eq!(code, 1, "a table ended so is not finished: {stderr}");
}

/// How the person at a table leaves it.
#[derive(Clone, Copy, Debug)]
enum Exit {
    Quit,
    EndOfInput,
    /// `kill -9`, then `armada resume` with a computer playing on.
    Killed,
}

/// A table between a computer host and a person (classic 8×8, two games), at the
/// moment the person left it.
struct Left {
    _dir: tempfile::TempDir,
    data: [std::path::PathBuf; 2],
    host: Process,
    person: Child,
    exit: Exit,
    /// What the person's terminal said.
    said: Vec<String>,
}

/// The person plays (a computer host, classic 8×8, two games) and leaves by `exit`
/// in `game` (1 or 2): before its move number `at`, or (`at` 4) right after the
/// game's verdict.
fn person_leaves(exit: Exit, game: u32, at: usize) -> Left {
    let dir = tempfile::tempdir().unwrap();
    let data = [dir.path().join("host"), dir.path().join("guest")];
    let host = Process::start(
        &[
            "host",
            "--bot",
            "hard",
            "--games",
            "2",
            "--classic",
            "8",
            "--listen",
            LISTEN,
        ],
        &data[0],
    );
    let link = host.line_starting("armada://join/");
    let (mut person, lines) = person(&["join", &link, "--games", "2"], &data[1]);
    let mut stdin = Some(person.stdin.take().unwrap());
    let cells = || (1..=8).flat_map(|row| ('A'..='H').map(move |col| format!("{col}{row}")));
    let mut next = cells();
    let (mut now_in, mut moves) = (1, 0);
    let mut said = Vec::new();
    let mut left = false;
    while let Ok(line) = lines.recv_timeout(PROMPT) {
        said.push(line.clone());
        let input = stdin.as_mut().unwrap();
        if line.starts_with("game 2 started") {
            (now_in, next, moves) = (2, cells(), 0);
        }
        let after = now_in == game && at == 4 && line.starts_with("verdict:");
        let during = now_in == game && at < 4 && moves == at && line == "your move";
        if after || during {
            match exit {
                Exit::Quit => writeln!(input, "quit").unwrap(),
                Exit::EndOfInput => drop(stdin.take()),
                Exit::Killed => person.kill().unwrap(),
            }
            left = true;
            break;
        }
        if now_in == 1 && line.starts_with("verdict:") {
            writeln!(input, "again").unwrap();
        }
        // A cell the sinking of a ship marked is refused: the next one is typed.
        if line == "your move" || line.ends_with("is already marked") {
            moves += usize::from(line == "your move");
            writeln!(input, "{}", next.next().unwrap()).unwrap();
        }
    }
    assert!(left, "the moment came: {said:?}");
    let code = exit_of(&mut person);
    // The pipes' reader threads may still be behind the exit: read until both close.
    while let Ok(line) = lines.recv_timeout(PROMPT) {
        said.push(line);
    }
    if !matches!(exit, Exit::Killed) {
        assert_eq!(code, 0, "{said:?}");
    }
    Left {
        _dir: dir,
        data,
        host,
        person,
        exit,
        said,
    }
}

impl Left {
    /// Both sides end cleanly (a killed person resumed, a computer playing on), and
    /// both records verify complete and alike: their reports.
    fn ends_complete(self, what: &str) -> [armada::fair::verify::Report; 2] {
        drop(self.person);
        if let Exit::Killed = self.exit {
            let resumed = Process::start(
                &[
                    "resume", "--bot", "easy", "--games", "2", "--listen", LISTEN,
                ],
                &self.data[1],
            );
            let (code, err) = resumed.finish_within(PROMPT);
            assert_eq!(code, 0, "{what}: {err}");
        }
        let (code, err) = self.host.finish_within(PROMPT);
        assert_eq!(code, 0, "{what}: the host ends at once and cleanly: {err}");
        let reports = self.data.each_ref().map(|data| verify(&transcript(data)));
        for report in &reports {
            assert_eq!(report.outcome, Outcome::Honest, "{what}");
            assert!(report.games.iter().all(|g| g.verdict.is_some()), "{what}");
        }
        assert_eq!(
            reports[0].games, reports[1].games,
            "{what}: the same record"
        );
        reports
    }
}

/// Random tables: the person leaves at a random moment — before a game's first move,
/// during it, or right after its verdict — by `quit`, by the end of input, or killed
/// and resumed. Both processes end, cleanly, and both records verify complete and
/// alike.
#[test]
fn a_person_leaving_a_random_table_at_a_random_moment_leaves_both_records_complete() {
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    let exits = [Exit::Quit, Exit::EndOfInput, Exit::Killed];
    let mut tried = Vec::new();
    for seed in 0..9u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let exit = exits[seed as usize % 3];
        let game = rng.random_range(1..=2);
        let at = rng.random_range(0..=4);
        tried.push((exit, game, at));
        person_leaves(exit, game, at)
            .ends_complete(&format!("seed {seed}: {exit:?} in game {game} at {at}"));
    }
    eprintln!("{} tables: {tried:?}", tried.len());
}

/// The host killed over QUIC and resumed on its old port: the guest, holding the dead
/// connection, is told at once that the host is back (a knock where it listens) or,
/// failing that, finds out from QUIC's idle timeout; either way it dials again and the
/// table finishes honest on both sides. Which comes first is a race with the resumed
/// process's start, so it is printed, not asserted.
#[test]
fn a_host_killed_and_resumed_over_quic_is_found_again_and_the_table_finishes() {
    let bots = &crate::net::SEA;
    let dir = tempfile::tempdir().unwrap();
    let listen = "/ip4/127.0.0.1/udp/0/quic-v1";
    let (host, guest, host_data, guest_data) =
        crate::net::two_bots_with(bots, dir.path(), listen, [&[], &[]]);
    assert!(host.wait_for("score"), "the host plays");
    // The host notes where the guest listens as soon as it learns it: the knock's
    // address is in its meta before it is killed.
    let store = armada::store::Store::open(Some(&host_data)).unwrap();
    let table = store.tables().unwrap()[0];
    let noted = Instant::now();
    while store.load_meta(&table).unwrap().knock.is_empty() {
        assert!(
            noted.elapsed() < PROMPT,
            "the host never noted where the guest listens"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    host.kill();
    let resumed = Process::start(&["resume", "--listen", listen], &host_data);
    let mut seen = Vec::new();
    let first = loop {
        let line = guest
            .lines
            .recv_timeout(PROMPT)
            .unwrap_or_else(|_| panic!("the guest went quiet: {seen:?}"));
        if line.contains("the other player is back: reconnecting") || line.starts_with("link lost")
        {
            break line;
        }
        seen.push(line);
    };
    eprintln!("the guest learnt of the restart by: {first}");
    assert!(
        guest.wait_for("reconnected"),
        "the guest found the host again"
    );
    crate::net::both_succeed(guest, resumed);
    for data in [&host_data, &guest_data] {
        (bots.honest)(data);
    }
}

/// A node restarted with the same key knocks where its peer listens, which it
/// learnt while connected (not the fresh port the peer dialled from): the peer
/// hears it and closes the old connection at once, whatever its transport's idle
/// timeout. In process, so nothing races a process's start.
#[test]
fn a_restarted_node_knocks_where_its_peer_listens_and_the_old_connection_is_closed() {
    use armada::fair::sign::Identity;
    use armada::net::{Config, Node};
    let quic = || Config {
        listen: vec!["/ip4/127.0.0.1/udp/0/quic-v1".parse().unwrap()],
        ..Config::default()
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let host_id = Identity::generate();
        let host = Node::start(&host_id.keypair(), quic()).await.unwrap();
        let guest = Node::start(&Identity::generate().keypair(), quic())
            .await
            .unwrap();
        let (host_peer, guest_peer) = (host.peer_id(), guest.peer_id());
        let mut heard = host.back_ats();
        guest.dial(host_peer, host.listeners().await).await.unwrap();
        let at = soon(
            "learning where the guest listens",
            heard.wait_for(|all| all.contains_key(&guest_peer)),
        )
        .await
        .unwrap()[&guest_peer]
            .clone();
        let listens = guest.listeners().await;
        assert!(
            listens.iter().all(|a| at.contains(a)),
            "the host knows where the guest listens: {at:?} vs {listens:?}"
        );

        let mut backs = guest.backs();
        let mut host_routes = host.routes();
        assert!(host_routes.borrow().contains_key(&guest_peer));
        let restarted = Node::start(&host_id.keypair(), quic()).await.unwrap();
        soon("the knock", restarted.knock(guest_peer, at))
            .await
            .expect("the knock is answered");
        let from = soon("hearing the knock", backs.recv()).await.unwrap();
        assert_eq!(from, host_peer, "the guest hears who is back");
        // The old node is still running here: only the guest can have closed it.
        soon(
            "closing the old connection",
            host_routes.wait_for(|routes| !routes.contains_key(&guest_peer)),
        )
        .await
        .unwrap();
        assert!(
            restarted.routes().borrow().contains_key(&guest_peer),
            "the new connection stays"
        );
    });
}

/// `future`'s output, or a panic naming `what` after [`PROMPT`].
async fn soon<T>(what: &str, future: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(PROMPT, future)
        .await
        .unwrap_or_else(|_| panic!("{what} did not happen within {PROMPT:?}"))
}
