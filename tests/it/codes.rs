//! Short table codes between `armada` processes on 127.0.0.1: a relay there is the
//! test's whole public network (its DHT), hosts announce their code's number in it,
//! guests find them by the number and prove the words.

use std::path::Path;
use std::time::Duration;

use super::net::{ARMADA, Process, assert_honest, both_succeed};

const LISTEN: &str = "/ip4/127.0.0.1/tcp/0";

/// A relay on loopback serving the DHT; its address, to give as `--bootstrap`.
pub(crate) fn network(dir: &Path) -> (Process, String) {
    let relay = Process::start(&["relay", "--listen", LISTEN], &dir.join("relay"));
    let addr = relay
        .line_starting("relay at ")
        .trim_start_matches("relay at ")
        .to_string();
    (relay, addr)
}

/// `armada` with `head` (the command and its argument), a random computer player for
/// `games` games, on loopback and the test's network.
fn player(head: &[&str], network: &str, data: &Path, env: &[(&str, &str)], games: &str) -> Process {
    let mut args = head.to_vec();
    args.extend(["--bot", "random", "--games", games, "--listen", LISTEN]);
    args.extend(["--bootstrap", network]);
    Process::start_with(&args, data, env)
}

/// A host on the test's network, and its short code.
fn host(network: &str, data: &Path, env: &[(&str, &str)], games: &str) -> (Process, String) {
    let host = player(&["host"], network, data, env, games);
    host.line_starting("table open. Read this code to your friend:");
    let code = host.line_starting("    ").trim().to_string();
    (host, code)
}

fn guest(network: &str, data: &Path, code: &str, games: &str) -> Process {
    player(&["join", code], network, data, &[], games)
}

/// Ends with an error whose message contains `text` (within `limit`: a search that
/// hung would never end).
fn fails_saying(process: Process, text: &str) {
    let (code, stderr) = process.finish_within(Duration::from_secs(90));
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains(text), "expected {text:?} in: {stderr}");
}

/// The code with its second word replaced by another one of the list.
pub(crate) fn wrong_words(code: &str, nth: usize) -> String {
    let (front, last) = code.rsplit_once('-').unwrap();
    let other = armada_proto::WORDS
        .iter()
        .filter(|w| **w != last)
        .nth(nth)
        .unwrap();
    format!("{front}-{other}")
}

/// The payload of the guest's first frame in the transcript saved in `data`.
fn guest_hello(data: &Path) -> armada_proto::Payload {
    let file = std::fs::read_dir(data.join("tables"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "armada"))
        .unwrap();
    let transcript = armada_proto::decode_transcript(&std::fs::read(file).unwrap()).unwrap();
    let frame = transcript
        .frames
        .iter()
        .find(|f| f.from == armada_proto::Seat::Guest)
        .unwrap();
    armada_proto::Frame::decode(&frame.bytes)
        .unwrap()
        .body
        .payload
}

#[test]
fn a_friend_joins_by_the_short_code_and_the_transcript_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let (_relay, network) = network(dir.path());
    let (host, code) = host(&network, &dir.path().join("host"), &[], "1");
    assert!(armada_proto::ShortCode::parse(&code).is_ok(), "{code}");
    let guest = guest(&network, &dir.path().join("guest"), &code, "1");
    assert!(guest.wait_for("the host took the code"));
    both_succeed(guest, host);
    for side in ["host", "guest"] {
        assert_honest(&dir.path().join(side), 1);
        assert!(
            matches!(
                guest_hello(&dir.path().join(side)),
                armada_proto::Payload::CodeHello { .. }
            ),
            "the {side}'s transcript records the guest's way in"
        );
    }
}

#[test]
fn three_wrong_tries_withdraw_the_code_and_the_friend_needs_the_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let (_relay, network) = network(dir.path());
    let (host, code) = host(&network, &dir.path().join("host"), &[], "1");
    for nth in 0..3 {
        let stranger = guest(
            &network,
            &dir.path().join(format!("s{nth}")),
            &wrong_words(&code, nth),
            "1",
        );
        fails_saying(stranger, "did not take these words");
    }
    let withdrawn = host.line_starting("someone tried a wrong code 3 times");
    let new = withdrawn
        .rsplit_once("your new code is ")
        .unwrap()
        .1
        .to_string();
    assert!(
        withdrawn.contains(&format!("{code} is withdrawn")),
        "{withdrawn}"
    );
    assert_ne!(new, code);
    // The friend with the old code is told it was withdrawn, and spends no try.
    let late = guest(&network, &dir.path().join("late"), &code, "1");
    fails_saying(late, "was withdrawn after wrong tries");
    let friend = guest(&network, &dir.path().join("friend"), &new, "1");
    both_succeed(friend, host);
    assert_honest(&dir.path().join("friend"), 1);
}

#[test]
fn two_hosts_with_one_number_each_get_their_own_guest() {
    let dir = tempfile::tempdir().unwrap();
    let (_relay, network) = network(dir.path());
    let same = [("ARMADA_TEST_RENDEZVOUS", "4821")];
    let (first, first_code) = host(&network, &dir.path().join("h1"), &same, "1");
    let (second, second_code) = host(&network, &dir.path().join("h2"), &same, "1");
    assert!(first_code.starts_with("4821-") && second_code.starts_with("4821-"));
    assert_ne!(first_code, second_code);
    let first_guest = guest(&network, &dir.path().join("g1"), &first_code, "1");
    let second_guest = guest(&network, &dir.path().join("g2"), &second_code, "1");
    both_succeed(first_guest, first);
    both_succeed(second_guest, second);
    for side in ["h1", "h2", "g1", "g2"] {
        assert_honest(&dir.path().join(side), 1);
    }
}

#[test]
fn mistyped_unknown_and_expired_codes_get_one_clear_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let (_relay, network) = network(dir.path());
    fails_saying(
        guest(&network, &dir.path().join("typo"), "4821-harbr-anchor", "1"),
        "\"harbr\" is not one of the code words (did you mean \"harbor\"?)",
    );
    fails_saying(
        guest(
            &network,
            &dir.path().join("unknown"),
            "4821-harbor-anchor",
            "1",
        ),
        "no table answers to 4821-harbor-anchor",
    );
    // A table whose seat is taken no longer answers to its code; its guest is
    // stopped so the table waits for it, still open.
    let (host, code) = host(&network, &dir.path().join("host"), &[], "20");
    let taker = guest(&network, &dir.path().join("taker"), &code, "20");
    assert!(taker.wait_for("game 1 started"));
    taker.kill();
    fails_saying(
        guest(&network, &dir.path().join("late"), &code, "1"),
        "has expired: its table has started or closed",
    );
    drop(host);
    // And the command line names the short code in its help.
    let help = std::process::Command::new(ARMADA)
        .args(["join", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("4821-harbor-anchor"));
}
