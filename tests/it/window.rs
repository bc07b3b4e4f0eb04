//! The window, driven through its AccessKit tree with `egui_kittest` (no display, no
//! GPU): a whole game against the computer by clicks, the keyboard, placement by
//! hand with refusals explained, the language switch; and the pieces under it — the
//! translations, the fleet draft, the in-memory computer table.

use std::collections::BTreeSet;

use armada::ai::Level;
use armada::driver::Local;
use armada::fair::sign::Identity;
use armada::fair::table::{Note, Verdict};
use armada::rules::{Coord, Dir, Placer, Ship, Variant};
use armada::session::{Command, Event, Millis};
use armada::ui::{Armada, Draft, Lang, Problem, Text, message_ids};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

/// The window over the data in `dir` against a computer that moves at once.
pub(crate) fn window(dir: &std::path::Path) -> Harness<'static, Armada> {
    let store = armada::store::Store::open(Some(dir)).unwrap();
    harness(Armada::new(Some(store)).without_pauses())
}

/// The window over the data in `dir`, its network tables on loopback only: for
/// tests whose other side is another process, or whose subject is the network.
pub(crate) fn friend_window(dir: &std::path::Path) -> Harness<'static, Armada> {
    harness(friend_app(dir, "/ip4/127.0.0.1/tcp/0"))
}

/// The window over the data in `dir`, its network tables inside this process
/// (libp2p's in-memory transport, the same node, noise and yamux): for two windows
/// whose subject is the table, not the network.
pub(crate) fn in_process_window(dir: &std::path::Path) -> Harness<'static, Armada> {
    harness(friend_app(dir, "/memory/0"))
}

fn friend_app(dir: &std::path::Path, listen: &str) -> Armada {
    let store = armada::store::Store::open(Some(dir)).unwrap();
    let config = armada::net::Config {
        listen: vec![listen.parse().unwrap()],
        ..armada::net::Config::default()
    };
    Armada::new(Some(store)).with_network(config)
}

/// `app` in a test harness whose clock is the harness's time.
fn harness(app: Armada) -> Harness<'static, Armada> {
    sized_harness(app, egui::Vec2::new(1280.0, 1000.0))
}

/// `app` in a test harness of `size` (the window's inner size).
/// A window at 1100×760 that opened a friend table, and the table's invite.
fn hosting_window(dir: &std::path::Path, listen: &str) -> (Harness<'static, Armada>, String) {
    let mut harness = sized_harness(friend_app(dir, listen), egui::Vec2::new(1100.0, 760.0));
    click(&mut harness, "Open a table");
    until(&mut harness, "the invite", |h| h.state().invite().is_some());
    let link = harness.state().invite().unwrap().to_owned();
    (harness, link)
}

fn sized_harness(app: Armada, size: egui::Vec2) -> Harness<'static, Armada> {
    Harness::builder()
        .with_size(size)
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut Armada| {
                let now = (ui.input(|i| i.time) * 1000.0) as Millis;
                app.show(ui, now);
            },
            app,
        )
}

/// Whether the results say `whose` ("Your", "Opponent's") answers were all proven
/// and the revealed fleet legal.
fn proven(harness: &Harness<'_, Armada>, whose: &str) -> bool {
    harness
        .query_all_by_label_contains(&format!("{whose} answers: "))
        .filter_map(|n| n.accesskit_node().value())
        .any(|l| l.ends_with("and the revealed fleet is legal."))
}

pub(crate) fn has(harness: &Harness<'_, Armada>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
}

pub(crate) fn click(harness: &mut Harness<'_, Armada>, label: &str) {
    // "Home" is both in the top bar and on the results: either goes home.
    harness
        .get_all_by_label(label)
        .next()
        .unwrap_or_else(|| panic!("no {label:?}"))
        .click();
    harness.run();
}

/// Steps the window (its clock a quarter second a step) until `done` holds, at most
/// `steps` times; whether it came to hold.
pub(crate) fn step_until(
    harness: &mut Harness<'_, Armada>,
    steps: usize,
    done: impl Fn(&Harness<'_, Armada>) -> bool,
) -> bool {
    for _ in 0..steps {
        if done(harness) {
            return true;
        }
        harness.step();
    }
    done(harness)
}

/// Lets the computer move until it is the player's move or the game is over.
fn until_my_move(harness: &mut Harness<'_, Armada>) {
    assert!(
        step_until(harness, 400, |h| has(h, "Your move") || has(h, "Game over")),
        "the computer never gave the move back"
    );
}

#[test]
fn a_whole_game_against_the_computer_is_played_by_clicks_and_verified() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Easy");
    assert!(has(&harness, "Place your fleet"));
    assert!(has(&harness, "10 ships to place"));
    // Start stays off until every ship is placed.
    assert!(
        harness
            .get_by_label("Start the game")
            .accesskit_node()
            .is_disabled()
    );
    click(&mut harness, "Place automatically");
    click(&mut harness, "Start the game");
    play_to_the_end_by_clicks(&mut harness);
    // The transcript is saved where it says, and verifies offline.
    click(&mut harness, "Save the transcript");
    let id = session_id(&harness);
    let path = dir
        .path()
        .join("tables")
        .join(format!("{}.armada", hex::encode(id)));
    let report = armada::fair::verify::verify(&std::fs::read(path).unwrap());
    assert_eq!(report.outcome, armada::fair::verify::Outcome::Honest);
    // Play again: a fresh placement, the score kept.
    click(&mut harness, "Play again");
    for _ in 0..10 {
        harness.step();
    }
    assert!(has(&harness, "Place your fleet"));
    assert!(
        has(&harness, "Score: you 1 — 0 opponent") || has(&harness, "Score: you 0 — 1 opponent")
    );
    // The new game is unfinished: home offers to resume it.
    click(&mut harness, "Home");
    assert!(has(&harness, "Resume the unfinished sea battle"));
}

/// Classic sea battle chosen on the home screen: the boards have the chosen side, the
/// weapon bar offers plain shots only, and a whole game by clicks ends with both
/// verdicts honest; the choice is remembered for the next window.
#[test]
fn classic_boards_are_chosen_at_home_and_played_with_shots_only() {
    for side in [8u8, 12] {
        let dir = tempfile::tempdir().unwrap();
        let mut harness = window(dir.path());
        let mode = format!("Classic {side}×{side}, shots only");
        click(&mut harness, &mode);
        click(&mut harness, "Easy");
        let variant = Variant::classic(side).unwrap();
        let ships = variant.fleet().lengths().len();
        assert!(has(&harness, &format!("{ships} ships to place")), "{side}");
        click(&mut harness, "Place automatically");
        click(&mut harness, "Start the game");
        until_my_move(&mut harness);
        let session = harness.state().session().unwrap();
        assert_eq!(session.table().variant(), Some(variant));
        assert!(!session.table().timer(), "no timer against the computer");
        let cells = harness
            .query_all_by_label_contains("Enemy waters ")
            .filter(|n| n.accesskit_node().label().is_some_and(|l| l.contains(": ")))
            .count();
        assert_eq!(cells, usize::from(side) * usize::from(side), "{side}");
        for weapon in ["Torpedo", "Air strike", "Radar"] {
            assert!(!has(&harness, weapon), "no {weapon} in classic {side}");
        }
        play_to_the_end_by_clicks(&mut harness);
        drop(harness);
        let again = window(dir.path());
        assert!(
            again
                .get_by_label(&mode)
                .accesskit_node()
                .is_selected()
                .unwrap_or(false)
                || again.get_by_label(&mode).accesskit_node().toggled()
                    == Some(egui::accesskit::Toggled::True),
            "the mode is remembered"
        );
    }
}

/// Fires at unknown enemy cells by clicks until the game is over, then checks the
/// results screen: who won and how, both verdicts honest, the statistics.
fn play_to_the_end_by_clicks(harness: &mut Harness<'_, Armada>) {
    let mut clicks = 0;
    while !has(harness, "Game over") {
        until_my_move(harness);
        if has(harness, "Game over") {
            break;
        }
        assert_hud(harness);
        let before = harness.state().session().unwrap().table().history().len();
        assert!(
            click_unknown_enemy_cell(harness),
            "an unknown cell while the game goes on"
        );
        harness.run();
        clicks += 1;
        let after = harness.state().session().unwrap().table().history().len();
        assert!(
            after > before || has(harness, "Game over"),
            "the click fired"
        );
        assert!(clicks < 300, "the game does not end");
    }
    // Let the reveal and the verdict come in.
    for _ in 0..20 {
        harness.step();
    }
    assert!(has(harness, "You win!") || has(harness, "You lose."));
    assert!(proven(harness, "Your"));
    assert!(proven(harness, "Opponent\'s"));
    let session = harness.state().session().unwrap();
    assert!(matches!(
        session.table().settled(),
        Some(Verdict::Honest(_))
    ));
    assert!(has(harness, "Every ship of the losing fleet was sunk."));
    // The statistics: the player's accuracy as the history gives it.
    let me = session.seat();
    let effects: Vec<_> = session
        .table()
        .history()
        .iter()
        .filter(|p| p.seat == me)
        .flat_map(|p| p.report.effects.clone())
        .collect();
    let hits = effects.iter().filter(|e| e.is_hit()).count();
    let accuracy = 100.0 * hits as f64 / effects.len() as f64;
    for row in [
        "Actions",
        "Cells fired at",
        "Decks hit",
        "Accuracy",
        "Weapons used",
    ] {
        assert!(has(harness, row), "{row}");
    }
    assert!(
        harness
            .query_all_by_label(&format!("{accuracy:.0} %"))
            .next()
            .is_some(),
        "the accuracy {accuracy:.0} %"
    );
}

/// The HUD's counts, against the record: the enemy ships afloat by kind (the
/// fleet less the ships the player's reports sank) and the opponent's weapons left
/// (the stock less what its actions spent).
fn assert_hud(harness: &Harness<'_, Armada>) {
    let session = harness.state().session().unwrap();
    let me = session.seat();
    let game = session.table().game().unwrap();
    let history = session.table().history();
    let sunk: Vec<usize> = history
        .iter()
        .filter(|p| p.seat == me)
        .flat_map(|p| &p.report.effects)
        .filter_map(|e| match e {
            armada::rules::Effect::Sunk { ship, .. } => Some(ship.len()),
            _ => None,
        })
        .collect();
    let spec = game.variant().fleet();
    let names = [
        (5, "five-decker"),
        (4, "battleship"),
        (3, "cruiser"),
        (2, "destroyer"),
        (1, "boat"),
    ];
    let afloat: Vec<String> = names
        .iter()
        .filter(|(len, _)| spec.count(*len) > 0)
        .map(|&(len, name)| {
            let gone = sunk.iter().filter(|&&l| l == usize::from(len)).count();
            format!("{name} ×{}", spec.count(len) - gone)
        })
        .collect();
    let line = format!("Enemy ships afloat: {}", afloat.join(" · "));
    assert!(has(harness, &line), "{line}");
    if game.variant().has_weapons() {
        use armada::rules::Weapon;
        let used = |weapon| {
            history
                .iter()
                .filter(|p| p.seat != me && p.action.weapon() == Some(weapon))
                .count()
        };
        let line = format!(
            "Opponent's weapons left: torpedoes ×{}, air strikes ×{}, radar ×{}",
            2 - used(Weapon::Torpedo),
            2 - used(Weapon::AirStrike),
            1 - used(Weapon::Radar)
        );
        assert!(has(harness, &line), "{line}");
    }
}

#[test]
fn whole_games_against_medium_and_hard_are_played_by_clicks_and_verified() {
    for level in ["Medium", "Hard"] {
        let dir = tempfile::tempdir().unwrap();
        let mut harness = window(dir.path());
        start_against(&mut harness, level);
        play_to_the_end_by_clicks(&mut harness);
    }
}

#[test]
fn resigning_asks_first_and_the_game_is_listed_with_its_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    assert!(has(&harness, "No finished games yet."));
    start_against(&mut harness, "Hard");
    click(&mut harness, "Resign");
    assert!(has(&harness, "Resign this game?"));
    click(&mut harness, "No, play on");
    assert!(!has(&harness, "Game over"));
    click(&mut harness, "Resign");
    click(&mut harness, "Yes, resign");
    for _ in 0..10 {
        harness.step();
    }
    assert!(has(&harness, "You lose."));
    assert!(has(&harness, "You resigned."));
    click(&mut harness, "Home");
    assert!(has(
        &harness,
        "Against the computer (Hard): one game, score 0 – 1; every answer proven"
    ));
    assert!(!has(&harness, "Resume the unfinished sea battle"));
    // The list speaks the language just chosen, without leaving home first.
    harness.get_by_label("Language").click();
    harness.run();
    click(&mut harness, "Українська");
    assert!(has(&harness, "Суперник — комп'ютер (Складний)"));
    assert!(!has(&harness, "Against the computer (Hard)"));
}

fn session_id(harness: &Harness<'_, Armada>) -> [u8; 32] {
    harness.state().session().unwrap().table().id()
}

#[test]
fn closing_the_window_mid_game_and_reopening_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Medium");
    assert!(click_unknown_enemy_cell(&mut harness));
    harness.run();
    let before = harness.state().session().unwrap().clone();
    let played = before.table().history().len();
    assert!(played >= 1);
    drop(harness);
    // Reopened over the same data: the same table, every move still there, the
    // battle on screen, and play goes on.
    let mut harness = window(dir.path());
    let after = harness.state().session().expect("the table reopened");
    assert_eq!(after.table().id(), before.table().id());
    assert_eq!(after.table().history().len(), played);
    assert!(has(&harness, "Enemy waters"));
    until_my_move(&mut harness);
    if !has(&harness, "Game over") {
        assert!(click_unknown_enemy_cell(&mut harness));
        harness.run();
        let now = harness.state().session().unwrap().table().history().len();
        assert!(now > played, "a move after the reopening is played");
    }
    // Home, then the game is offered to resume.
    click(&mut harness, "Home");
    assert!(has(&harness, "Resume the unfinished sea battle"));
    click(&mut harness, "Resume the unfinished sea battle");
    assert!(has(&harness, "Enemy waters"));
}

#[test]
fn the_keyboard_aims_and_fires_and_weapons_take_their_keys() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Medium");
    // The cursor starts at A1: right once, down once, fire → a shot at B2.
    harness.key_press(egui::Key::ArrowRight);
    harness.key_press(egui::Key::ArrowDown);
    harness.run();
    harness.key_press(egui::Key::Enter);
    harness.run();
    for _ in 0..5 {
        harness.step();
    }
    let game = harness
        .state()
        .session()
        .unwrap()
        .table()
        .game()
        .unwrap()
        .clone();
    let b2 = Coord::new(1, 1).unwrap();
    assert_ne!(
        game.chart(harness.state().session().unwrap().seat())
            .mark(b2),
        armada::rules::Mark::Unmarked
    );
    // Key 4 takes the radar: the bar shows it chosen and the stock.
    until_my_move(&mut harness);
    if !has(&harness, "Game over") {
        harness.key_press(egui::Key::Num4);
        harness.run();
        let radar = harness.get_by_label_contains("Radar ×1");
        assert_eq!(
            radar.accesskit_node().toggled(),
            Some(egui::accesskit::Toggled::True)
        );
    }
}

#[test]
fn placing_by_hand_explains_a_refused_position() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Hard");
    // The battleship is in hand: put it at A1 across, then try the cruiser at A2.
    click(&mut harness, "Your fleet A1: water");
    assert!(has(&harness, "9 ships to place"));
    assert!(has(&harness, "Your fleet D1: ship"));
    harness.get_by_label("Your fleet A2: water").hover();
    harness.run();
    harness.run();
    assert!(has(&harness, "Ships may not touch, not even at a corner."));
    click(&mut harness, "Your fleet A2: water");
    assert!(
        has(&harness, "9 ships to place"),
        "a touching ship is refused"
    );
    // Turned (R), the cruiser goes down from A3.
    harness.key_press(egui::Key::R);
    harness.run();
    click(&mut harness, "Your fleet A3: water");
    assert!(has(&harness, "8 ships to place"));
    assert!(has(&harness, "Your fleet A5: ship"));
    click(&mut harness, "Clear");
    assert!(has(&harness, "10 ships to place"));
}

#[test]
fn placing_the_rest_automatically_keeps_the_ships_placed_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Hard");
    click(&mut harness, "Your fleet A1: water");
    assert!(has(&harness, "9 ships to place"));
    assert!(!has(&harness, "Place automatically"));
    let start = harness.get_by_label("Start the game").rect();
    click(&mut harness, "Place the rest automatically");
    assert!(has(&harness, "Every ship is placed."));
    // The dock emptied below the buttons: Start stayed where the pointer left it.
    assert_eq!(harness.get_by_label("Start the game").rect(), start);
    for cell in ["A1", "B1", "C1", "D1"] {
        assert!(has(&harness, &format!("Your fleet {cell}: ship")), "{cell}");
    }
    for cell in ["E1", "A2", "E2"] {
        assert!(
            has(&harness, &format!("Your fleet {cell}: water")),
            "{cell}"
        );
    }
    // With every ship placed, the button draws a whole new fleet again.
    assert!(has(&harness, "Place automatically"));
    // For the docs: `ARMADA_SHOTS=dir` keeps the placement.
    if let Ok(shots) = std::env::var("ARMADA_SHOTS") {
        let image = harness.render().expect("a renderer");
        image
            .save(std::path::Path::new(&shots).join("placement.png"))
            .unwrap();
    }
}

#[test]
fn a_right_click_turns_the_ship_in_hand_and_a_placed_ship_is_dragged_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Hard");
    // The battleship in hand, turned by a right-click, goes down from A1.
    harness
        .get_by_label("Your fleet A1: water")
        .click_secondary();
    harness.run();
    click(&mut harness, "Your fleet A1: water");
    assert!(has(&harness, "9 ships to place"));
    assert!(has(&harness, "Your fleet A4: ship") && has(&harness, "Your fleet B1: water"));
    // Dragged by its second deck to F3, it lies down from F2 (the deck held stays
    // under the pointer); A1 to A4 are water again.
    let centre =
        |h: &Harness<'_, Armada>, label: &str| h.get_by_label_contains(label).rect().center();
    let from = centre(&harness, "Your fleet A2:");
    let to = centre(&harness, "Your fleet F3:");
    harness.hover_at(from);
    harness.run();
    harness.drag_at(from);
    harness.run();
    harness.hover_at(from + (to - from) * 0.5);
    harness.run();
    harness.hover_at(to);
    harness.run();
    harness.event(egui::Event::PointerButton {
        pos: to,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run();
    for cell in ["F2", "F3", "F4", "F5"] {
        assert!(has(&harness, &format!("Your fleet {cell}: ship")), "{cell}");
    }
    assert!(has(&harness, "Your fleet F6: water"));
    for cell in ["A1", "A2", "A3", "A4"] {
        assert!(
            has(&harness, &format!("Your fleet {cell}: water")),
            "{cell}"
        );
    }
    assert!(has(&harness, "9 ships to place"), "moved, not placed twice");
}

#[test]
fn the_language_switch_translates_the_window_and_is_remembered() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    assert!(has(&harness, "Play the computer"));
    harness.get_by_label("Language").click();
    harness.run();
    click(&mut harness, "Українська");
    assert!(has(&harness, "Грати з комп'ютером"));
    assert_eq!(harness.state().lang(), Lang::Uk);
    drop(harness);
    // A new window over the same data speaks Ukrainian from the start.
    let harness = window(dir.path());
    assert!(has(&harness, "Грати з комп'ютером"));
}

#[test]
fn the_public_network_switch_is_on_by_default_explains_itself_and_is_remembered() {
    use armada::driver::Public;
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    assert_eq!(harness.state().friend_net().public, Public::Builtin);
    assert!(has(
        &harness,
        "Finds relays on the public libp2p network so that a friend behind another router can join; off: this LAN and direct addresses only."
    ));
    click(
        &mut harness,
        "Through the internet (the public libp2p network)",
    );
    assert_eq!(harness.state().friend_net().public, Public::Off);
    drop(harness);
    // A new window over the same data keeps friend tables off the public network.
    let mut harness = window(dir.path());
    assert_eq!(harness.state().friend_net().public, Public::Off);
    click(
        &mut harness,
        "Through the internet (the public libp2p network)",
    );
    assert_eq!(harness.state().friend_net().public, Public::Builtin);
}

#[test]
fn the_public_network_switch_shows_it_off_when_the_run_forces_it_off() {
    use armada::driver::Public;
    let dir = tempfile::tempdir().unwrap();
    let store = armada::store::Store::open(Some(dir.path())).unwrap();
    let config = armada::net::Config {
        public: Public::Off,
        ..armada::net::Config::default()
    };
    // The remembered choice is on (the default), but this run is off the network.
    let harness = harness(Armada::new(Some(store)).with_network(config));
    let switch = harness.get_by_label("Through the internet (the public libp2p network)");
    assert!(switch.accesskit_node().is_disabled());
    assert_eq!(
        switch.accesskit_node().toggled(),
        Some(egui::accesskit::Toggled::False)
    );
    assert!(has(
        &harness,
        "Off for this run (--no-public or ARMADA_NO_PUBLIC)"
    ));
    assert_eq!(harness.state().friend_net().public, Public::Off);
}

#[test]
fn the_lan_list_shows_the_tables_one_can_join_named_readably() {
    let dir = tempfile::tempdir().unwrap();
    let store = armada::store::Store::open(Some(dir.path())).unwrap();
    let peer = |tail: &str| format!("12D3KooWQvKnp8h2mLbYbxBW3ZHsdjKx7t9zW{tail}");
    let app = Armada::new(Some(store)).with_lan_found(vec![
        (
            peer("aaaaaa"),
            "Armada".into(),
            Some("armada://join/one".into()),
        ),
        (peer("bbbbbb"), "Archimedes 8×8".into(), None),
        (
            peer("cccccc"),
            "Armada".into(),
            Some("armada://join/two".into()),
        ),
    ]);
    let harness = harness(app);
    assert!(has(&harness, "A table (Armada) at …aaaaaa"));
    assert!(has(&harness, "A table (Armada) at …cccccc"));
    assert!(
        !has(&harness, "bbbbbb"),
        "a table that cannot be joined is not listed"
    );
    assert!(has(
        &harness,
        "One more table on the LAN takes its invite by hand: ask your friend for the code."
    ));
    // Two Join buttons for the two open tables, and the one beside the code field.
    assert_eq!(harness.query_all_by_label("Join").count(), 3);
}

/// Found looking at the battle: "Torpedo runs □" — the window's fonts have no
/// arrows, and a missing glyph draws as a box. Every character of every message in
/// every language must be in the fonts the window draws with.
#[test]
fn every_message_is_drawn_in_glyphs_the_window_has() {
    let ctx = egui::Context::default();
    let _ = ctx.run_ui(egui::RawInput::default(), |_| {});
    let font = egui::FontId::proportional(14.0);
    assert!(
        !ctx.fonts_mut(|f| f.has_glyph(&font, '→')),
        "the check sees the glyph that was missing"
    );
    for lang in Lang::ALL {
        let (ids, _) = message_ids(lang.source());
        let t = Text::new(lang);
        for id in ids {
            let text = t.get(&id);
            let missing: String = text
                .chars()
                .filter(|c| !c.is_control())
                .filter(|c| !ctx.fonts_mut(|f| f.has_glyph(&font, *c)))
                .collect();
            assert!(
                missing.is_empty(),
                "{lang:?} {id}: no glyph for {missing:?} in {text:?}"
            );
        }
    }
}

#[test]
fn every_language_has_every_message_and_each_parses() {
    let (english, clean) = message_ids(Lang::En.source());
    assert!(clean, "en.ftl parses");
    let english: BTreeSet<String> = english.into_iter().collect();
    for lang in [Lang::Uk, Lang::Ru] {
        let (ids, clean) = message_ids(lang.source());
        assert!(clean, "{lang:?} parses");
        let ids: BTreeSet<String> = ids.into_iter().collect();
        assert_eq!(ids, english, "{lang:?} has exactly the English messages");
    }
    // Each is translated: no Ukrainian or Russian text is the English one, but for
    // these, which are the same in every language.
    let same_everywhere = ["app-title", "why-other", "cell-label"];
    for lang in [Lang::Uk, Lang::Ru] {
        let (en, other) = (Text::new(Lang::En), Text::new(lang));
        for id in &english {
            if same_everywhere.contains(&id.as_str()) {
                continue;
            }
            assert_ne!(en.get(id), other.get(id), "{lang:?} leaves {id} in English");
        }
    }
    // Every message id the window's code asks for exists.
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut used = BTreeSet::new();
    for file in walk(&src) {
        let code = std::fs::read_to_string(&file).unwrap();
        for (i, _) in code.match_indices('"') {
            let rest = &code[i + 1..];
            let Some(end) = rest.find('"') else { continue };
            let word = &rest[..end];
            if word.len() > 3
                && word.contains('-')
                && word.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                && !word.starts_with('-')
            {
                used.insert(word.to_owned());
            }
        }
    }
    let missing: Vec<_> = used.difference(&english).collect();
    assert!(
        missing.is_empty(),
        "ids used but not translated: {missing:?}"
    );
    assert!(used.len() > 40, "the scan finds the ids ({})", used.len());
}

/// The game's terms in Ukrainian and Russian are the seed pages' own words
/// (`../shared/seeds/`): a term left in another wording, or the game's name left in
/// Latin letters, fails here.
#[test]
fn the_game_terms_are_the_seed_pages_words() {
    let terms = [
        (Lang::Uk, "app-title", "Армада"),
        (Lang::Uk, "mode-armada", "Армада:"),
        (Lang::Uk, "level-easy", "Легкий"),
        (Lang::Uk, "level-medium", "Середній"),
        (Lang::Uk, "level-hard", "Складний"),
        (Lang::Uk, "board-enemy", "Поле"),
        (Lang::Uk, "placement-ready-button", "Готовий"),
        (Lang::Uk, "placement-start", "Почати"),
        (Lang::Uk, "play-again", "Ще раз"),
        (Lang::Uk, "turn-over", "Партію"),
        (Lang::Uk, "fx-miss", "промах"),
        (Lang::Ru, "app-title", "Армада"),
        (Lang::Ru, "mode-armada", "Армада:"),
        (Lang::Ru, "level-easy", "Лёгкий"),
        (Lang::Ru, "level-medium", "Средний"),
        (Lang::Ru, "level-hard", "Сложный"),
        (Lang::Ru, "board-enemy", "Поле"),
        (Lang::Ru, "turn-over", "Партия"),
        (Lang::Ru, "fx-miss", "мимо"),
        (Lang::Ru, "fx-hit", "ранил"),
        (Lang::Ru, "fx-sunk", "убил"),
    ];
    for (lang, id, word) in terms {
        let text = Text::new(lang).get(id);
        assert!(
            text.contains(word),
            "{lang:?} {id} = {text:?}, not {word:?}"
        );
    }
    for lang in [Lang::Uk, Lang::Ru] {
        let text = Text::new(lang);
        for id in message_ids(lang.source()).0 {
            assert!(
                !text.get(&id).contains("Armada"),
                "{lang:?} {id} names the game in Latin letters"
            );
        }
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn plurals_follow_each_language() {
    let count = |lang, n: u32| Text::new(lang).with("placement-left", &[("count", n.into())]);
    assert_eq!(count(Lang::En, 1), "One ship to place");
    assert_eq!(count(Lang::En, 3), "3 ships to place");
    assert_eq!(count(Lang::Uk, 1), "Залишився 1 корабель");
    assert_eq!(count(Lang::Uk, 3), "Залишилося 3 кораблі");
    assert_eq!(count(Lang::Uk, 5), "Залишилося 5 кораблів");
    assert_eq!(count(Lang::Ru, 1), "Остался 1 корабль");
    assert_eq!(count(Lang::Ru, 4), "Осталось 4 корабля");
    assert_eq!(count(Lang::Ru, 10), "Осталось 10 кораблей");
    let ship = |lang| Text::new(lang).with("dock-ship", &[("len", 3u32.into())]);
    assert_eq!(ship(Lang::En), "cruiser (3 decks)");
    assert_eq!(ship(Lang::Uk), "крейсер (3 палуби)");
    assert_eq!(ship(Lang::Ru), "крейсер (3 палубы)");
    let proven = |lang, n: u32| Text::new(lang).with("verdict-honest", &[("answers", n.into())]);
    assert_eq!(
        proven(Lang::En, 0),
        "No answer was owed, and the revealed fleet is legal."
    );
    assert_eq!(
        proven(Lang::En, 1),
        "One answer proven, and the revealed fleet is legal."
    );
    assert_eq!(
        proven(Lang::En, 7),
        "All 7 answers proven, and the revealed fleet is legal."
    );
    assert_eq!(
        proven(Lang::Ru, 0),
        "Ответов не было, раскрытый флот правильный."
    );
    assert_eq!(
        proven(Lang::Ru, 3),
        "Все 3 ответа доказаны, раскрытый флот правильный."
    );
    assert_eq!(
        proven(Lang::Uk, 0),
        "Відповідей не було, розкритий флот правильний."
    );
}

#[test]
fn a_draft_refuses_touching_overlapping_and_off_board_ships() {
    let mut draft = Draft::new(Variant::Armada.fleet());
    let at = |c, r| Coord::new(c, r).unwrap();
    assert_eq!(draft.place(0, Ship::new(at(0, 0), Dir::Across, 4)), Ok(()));
    // Slot 1 is a cruiser.
    let touching = Ship::new(at(4, 1), Dir::Across, 3);
    assert_eq!(draft.check(1, touching), Err(Problem::Touch));
    let over = Ship::new(at(2, 0), Dir::Down, 3);
    assert_eq!(draft.check(1, over), Err(Problem::Overlap));
    let off = Ship::new(at(8, 5), Dir::Across, 3);
    assert_eq!(draft.check(1, off), Err(Problem::OffBoard));
    assert_eq!(draft.place(1, touching), Err(Problem::Touch));
    assert!(draft.ship(1).is_none(), "a refused place changes nothing");
    // Moving a ship does not collide with itself.
    assert_eq!(draft.place(0, Ship::new(at(1, 0), Dir::Across, 4)), Ok(()));
    assert!(draft.fleet().is_none(), "not every ship is placed");
    let fleet = Placer::new(&Variant::Armada.fleet()).place(&mut rand::rng());
    draft.fill(&fleet);
    assert_eq!(draft.fleet(), Some(fleet));
    assert_eq!(draft.next_free(), None);
}

#[test]
fn the_computer_table_plays_whole_games_honestly_on_a_virtual_clock() {
    let mut local = Local::new(Identity::generate(), Level::Medium, Variant::Armada).unwrap();
    let mut me = armada::driver::bot::Bot::new(Level::Easy, 2);
    let mut rng = rand::rng();
    let mut now: Millis = 0;
    let (mut games, mut starts) = (0, 0);
    for _ in 0..20_000 {
        while let Some(event) = local.poll_event() {
            if let Event::Table(Note::Started { timer }) = event {
                assert!(!timer, "no move timer against the computer");
                starts += 1;
            }
            me.observe(local.session().seat(), &event);
        }
        if armada::driver::played(local.session(), 2) {
            break;
        }
        if let Some(command) = me.next(local.session(), &mut rng) {
            let again = matches!(command, Command::PlayAgain);
            local.command(now, command).unwrap();
            games += usize::from(again);
        }
        // Time passes: the computer thinks for a moment before each move.
        now += 100;
        local.tick(now);
    }
    assert!(
        armada::driver::played(local.session(), 2),
        "two games played"
    );
    assert_eq!(games, 1);
    assert_eq!(starts, 2, "each game started once, without the timer");
    assert!(matches!(
        local.session().table().settled(),
        Some(Verdict::Honest(_))
    ));
    let score = local.session().score();
    assert_eq!(
        score[0] + score[1],
        4,
        "two games, two points in half points"
    );
}

/// Started from the launcher, where nobody reads a terminal, a window that cannot
/// open (here: a display that does not exist) says why in a message box too, through
/// the desktop's `zenity` (a stand-in here that writes down what it was asked).
#[test]
fn a_window_that_cannot_open_says_why_in_a_message_box() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let asked = dir.path().join("asked");
    let zenity = bin.join("zenity");
    std::fs::write(
        &zenity,
        format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 3.44.0; exit 0; fi\nprintf '%s\\n' \"$@\" >> '{}'\n",
            asked.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&zenity, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_armada"))
        .args(["window", "--data-dir"])
        .arg(dir.path().join("data"))
        .env("DISPLAY", ":231")
        .env_remove("WAYLAND_DISPLAY")
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let asked =
        std::fs::read_to_string(&asked).unwrap_or_else(|_| panic!("no message box: {stderr}"));
    assert!(asked.contains("--error"), "{asked}");
    assert!(asked.contains("cannot open a window"), "{asked}");
    assert!(asked.contains("armada host --bot"), "{asked}");
}

#[test]
fn without_a_display_the_window_says_so_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_armada"))
        .args(["window", "--data-dir"])
        .arg(dir.path())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot open a window"), "{stderr}");
    assert!(stderr.contains("armada host --bot"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The real binary's window on a real X server (Xvfb) and Mesa's software Vulkan:
/// `armada bench-window` opens it, starts a game against the computer, fires both air
/// strikes and both torpedoes through the window, and closes it.
#[test]
fn the_real_window_opens_on_an_x_server_plays_the_weapons_and_closes() {
    let output = std::process::Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .args([env!("CARGO_BIN_EXE_armada"), "bench-window"])
        .output()
        .expect("xvfb-run starts (Debian/Ubuntu: apt install xvfb xauth; .ci/run does)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let figures = stdout.lines().last().unwrap_or_default();
    let figure = |name: &str| -> f64 {
        figures
            .split_whitespace()
            .find_map(|field| field.strip_prefix(name)?.strip_prefix('='))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {figures:?}"))
    };
    assert!(figures.ends_with(" weapons=4"), "{figures}");
    assert!(figure("frames") >= 1.0, "{figures}");
    assert!(figure("first_frame_ms") > 0.0, "{figures}");
    assert!(figure("rss_mib") > 0.0, "{figures}");
}

/// Steps the window, letting real time pass for the network, until `done` holds.
pub(crate) fn until(
    harness: &mut Harness<'_, Armada>,
    what: &str,
    done: impl Fn(&Harness<'_, Armada>) -> bool,
) {
    // A guard against a hang, not a measure: the network side runs on real time.
    let give_up = std::time::Instant::now() + std::time::Duration::from_mins(2);
    while std::time::Instant::now() < give_up {
        if done(harness) {
            return;
        }
        // Wakes at the network's next news (or after a moment without any), then
        // draws a frame with it.
        harness
            .state_mut()
            .wait_for_network(std::time::Duration::from_millis(25));
        harness.step();
    }
    let labels: Vec<_> = harness
        .query_all_by_label_contains(" ")
        .filter_map(|n| n.accesskit_node().label())
        .filter(|l| !l.contains("waters") && !l.contains("fleet "))
        .collect();
    panic!("waited in vain for {what}; on screen: {labels:?}");
}

#[test]
fn a_friend_table_opened_in_the_window_is_joined_by_invite_and_played_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = friend_window(&dir.path().join("host"));
    click(&mut harness, "Open a table");
    // The invite comes from the network thread; the screen shows it a frame later.
    until(&mut harness, "the invite, on screen", |h| {
        h.state().invite().is_some() && has(h, "Waiting for your friend")
    });
    let link = harness.state().invite().unwrap().to_owned();
    assert!(link.starts_with("armada://join/"));
    // The host knows how far the table can be reached, and says so where the
    // invite is: without the public network, not from beyond this LAN.
    until(&mut harness, "how far the table reaches", |h| {
        has(
            h,
            "The public network is off: only a friend on this LAN, or one who can \
             reach this computer directly, can join.",
        )
    });
    let guest_data = dir.path().join("guest");
    let mut guest = std::process::Command::new(env!("CARGO_BIN_EXE_armada"))
        .args([
            "join",
            &link,
            "--bot",
            "easy",
            "--no-discovery",
            "--no-public",
        ])
        .args(["--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir"])
        .arg(&guest_data)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    until(&mut harness, "the placement", |h| {
        has(h, "Place your fleet")
    });
    click(&mut harness, "Place automatically");
    // Start waits for the computer guest's Ready.
    until(&mut harness, "the guest's Ready", |h| {
        has(h, "The opponent is ready.")
    });
    click(&mut harness, "Start the game");
    let mut clicks = 0;
    loop {
        // My move, with my last shot answered: a click now is a shot (the label may
        // read "Your move" while an answer is still on its way).
        until(&mut harness, "my move", |h| {
            let answered = h
                .state()
                .session()
                .is_some_and(|s| s.table().pending().is_none());
            (has(h, "Your move") && answered) || has(h, "Game over")
        });
        if has(&harness, "Game over") {
            break;
        }
        assert!(has(&harness, "Connected directly"), "loopback is direct");
        click_unknown_enemy_cell(&mut harness);
        harness.step();
        clicks += 1;
        assert!(clicks < 400, "the game does not end");
    }
    until(&mut harness, "the verdict", |h| proven(h, "Opponent\'s"));
    assert!(proven(&harness, "Your"));
    let status = guest.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut guest.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(status.success(), "{stderr}");
    for side in ["host", "guest"] {
        let report = saved_report(&dir.path().join(side));
        assert_eq!(
            report.outcome,
            armada::fair::verify::Outcome::Honest,
            "{side}"
        );
    }
}

/// `armada verify`'s report of the one table saved in the data directory `data`.
pub(crate) fn saved_report(data: &std::path::Path) -> armada::fair::verify::Report {
    let transcript = std::fs::read_dir(data.join("tables"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "armada"))
        .unwrap();
    armada::fair::verify::verify(&std::fs::read(transcript).unwrap())
}

#[test]
fn the_window_joins_a_friend_table_by_pasted_invite_and_can_resign_there() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = std::process::Command::new(env!("CARGO_BIN_EXE_armada"))
        .args(["host", "--bot", "medium", "--no-discovery", "--no-public"])
        .args(["--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir"])
        .arg(dir.path().join("host"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(host.stdout.take().unwrap()));
    let link = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|l| l.starts_with("armada://join/"))
        .unwrap();
    std::thread::spawn(move || for _ in lines {});
    let mut harness = friend_window(&dir.path().join("guest"));
    // Nonsense is refused on the spot, with the reason.
    let field = "Your friend's code (4821-harbor-anchor) or invite";
    harness.get_by_label(field).focus();
    harness.run();
    harness
        .get_by_label(field)
        .type_text("armada://join/nonsense");
    harness.run();
    click(&mut harness, "Join");
    assert!(has(&harness, "That is neither a code nor an invite"));
    harness.get_by_label(field).focus();
    harness.run();
    for _ in 0.."armada://join/nonsense".chars().count() {
        harness.key_press(egui::Key::Backspace);
    }
    harness.run();
    harness.get_by_label(field).type_text(&link);
    harness.run();
    click(&mut harness, "Join");
    until(&mut harness, "the placement", |h| {
        has(h, "Place your fleet")
    });
    click(&mut harness, "Place automatically");
    // The guest's button is Ready; the host (a computer) starts.
    click(&mut harness, "Ready");
    until(&mut harness, "the battle", |h| has(h, "Resign"));
    click(&mut harness, "Resign");
    click(&mut harness, "Yes, resign");
    until(&mut harness, "the verdict", |h| proven(h, "Opponent\'s"));
    assert!(has(&harness, "You lose."));
    // Its one game played, the host's computer leaves the table and its process
    // ends: the window says so and offers no Play again that would do nothing
    // (regression: it still said "Connected directly", its Play again enabled).
    until(&mut harness, "the host's leave", |h| {
        has(h, "Your friend left the table.") && !has(h, "Connected directly")
    });
    assert!(
        harness
            .get_by_label("Play again")
            .accesskit_node()
            .is_disabled()
    );
    let status = host.wait().unwrap();
    assert!(status.success());
    click(&mut harness, "Home");
    assert!(has(&harness, "Open a table"));
    // The invite was used: the field is empty for the next one, not appended to.
    let value = harness.get_by_label(field).accesskit_node().value();
    assert!(value.as_deref().unwrap_or("").is_empty(), "{value:?}");
}

/// The label of an enemy cell whose whole 3×3 square lies on the board and holds an
/// unmarked cell: a legal centre for an air strike or a radar.
fn legal_centre(harness: &Harness<'_, Armada>) -> String {
    let session = harness.state().session().unwrap();
    let game = session.table().game().unwrap();
    let me = session.seat();
    let size = game.variant().size();
    let centre = size
        .cells()
        .find(|c| {
            game.check(me, &armada::rules::Action::AirStrike(*c))
                .is_ok()
        })
        .expect("some square is open");
    let _ = size;
    format!("Enemy waters {centre}:")
}

/// Clicks an enemy cell that is a legal centre for an air strike or a radar.
fn click_legal_centre(harness: &mut Harness<'_, Armada>) {
    let cell = legal_centre(harness);
    harness
        .get_all_by_label_contains(&cell)
        .next()
        .unwrap()
        .click();
}

/// Clicks an enemy cell nobody has fired at yet, if there is one. Like a player, it
/// first lets a running animation end: a cell whose shell is still falling looks
/// unknown until it lands.
fn click_unknown_enemy_cell(harness: &mut Harness<'_, Armada>) -> bool {
    step_until(harness, 32, |h| !h.state().animating());
    // A cell the rules still call unmarked (the screen's names may lag one frame
    // behind the latest answer).
    let session = harness.state().session().unwrap();
    let Some(game) = session.table().game() else {
        return false;
    };
    let unmarked = game.chart(session.seat()).unmarked();
    let Some(target) = harness
        .query_all_by_label_contains("Enemy waters")
        .find(|n| {
            n.accesskit_node().label().is_some_and(|l| {
                l.contains(": unknown")
                    && unmarked.iter().any(|c| {
                        l.starts_with(&format!(
                            "Enemy waters {}{}:",
                            (b'A' + c.col()) as char,
                            c.row() + 1
                        ))
                    })
            })
        })
    else {
        return false;
    };
    // A real pointer arrives over the cell frames before it presses.
    let rect = target.rect();
    harness.hover_at(rect.center());
    harness.step();
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: rect.center(),
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    true
}

#[test]
fn a_refused_aim_is_not_shown_on_the_cell_just_fired_at_until_the_pointer_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Easy");
    let label = |h: &Harness<'_, Armada>, state: &str| {
        h.query_all_by_label_contains("Enemy waters")
            .filter_map(|n| n.accesskit_node().label())
            .find(|l| l.ends_with(state))
            .unwrap()
    };
    let target = label(&harness, ": unknown");
    let cell = target.trim_end_matches("unknown").to_owned();
    harness.get_by_label(&target).click();
    harness.run();
    until_my_move(&mut harness);
    step_until(&mut harness, 32, |h| !h.state().animating());
    assert!(
        !has(&harness, &format!("{cell}unknown")),
        "the shot was fired"
    );
    assert!(
        !has(&harness, "Not here"),
        "no refusal under a pointer at rest"
    );
    // Away, and back: now the marked cell refuses the aim, and says why.
    harness.get_by_label(&label(&harness, ": unknown")).hover();
    harness.run();
    harness.get_by_label_contains(&cell).hover();
    harness.run();
    harness.run();
    assert!(has(&harness, "Not here: "));
}

#[test]
fn the_boards_and_buttons_stay_put_as_the_battle_goes_on() {
    for size in [
        egui::Vec2::new(1280.0, 1000.0),
        egui::Vec2::new(1100.0, 760.0),
    ] {
        boards_and_buttons_stay_put(size);
    }
}

#[test]
fn the_home_screen_fits_a_small_window() {
    for size in [
        egui::Vec2::new(640.0, 480.0),
        egui::Vec2::new(800.0, 600.0),
        egui::Vec2::new(1100.0, 760.0),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let store = armada::store::Store::open(Some(dir.path())).unwrap();
        let harness = sized_harness(Armada::new(Some(store)), size);
        for label in ["Join", "Open a table", "Hard", "Your friend's code"] {
            let rect = harness.get_by_label_contains(label).rect();
            assert!(
                rect.right() <= size.x,
                "{label} ends at {} in a window {} wide",
                rect.right(),
                size.x
            );
        }
    }
}

#[test]
fn the_other_sides_weapons_stay_inside_a_small_window() {
    let size = egui::Vec2::new(800.0, 600.0);
    let dir = tempfile::tempdir().unwrap();
    let store = armada::store::Store::open(Some(dir.path())).unwrap();
    let mut harness = sized_harness(Armada::new(Some(store)), size);
    press(&mut harness, "Easy");
    press(&mut harness, "Place automatically");
    press(&mut harness, "Start the game");
    until_my_move(&mut harness);
    let rect = harness
        .get_by_label_contains("Opponent's weapons left")
        .rect();
    assert!(rect.right() <= size.x, "ends at {}", rect.right());
}

fn boards_and_buttons_stay_put(size: egui::Vec2) {
    let dir = tempfile::tempdir().unwrap();
    let store = armada::store::Store::open(Some(dir.path())).unwrap();
    let mut harness = sized_harness(Armada::new(Some(store)), size);
    start_against(&mut harness, "Easy");
    let places = |h: &Harness<'_, Armada>| {
        ["Enemy waters A1:", "Your fleet A1:", "Resign"]
            .map(|label| h.get_by_label_contains(label).rect())
    };
    let before = places(&harness);
    // The first shot, its shell landing, and the move coming back.
    assert!(click_unknown_enemy_cell(&mut harness));
    harness.run();
    assert_eq!(places(&harness), before, "while the shell flies");
    until_my_move(&mut harness);
    step_until(&mut harness, 32, |h| !h.state().animating());
    assert_eq!(places(&harness), before, "after the first action");
    // The latest action shown is told on the news line, whoever made it.
    let headlines = [
        "Hit!",
        "Miss.",
        "You sank their ",
        "They missed.",
        "They hit your ",
        "They sank your ",
        "They swept a square with their radar.",
    ];
    assert!(
        headlines.iter().any(|h| has(&harness, h)),
        "the latest action is told"
    );
    // For the docs: `ARMADA_SHOTS=dir` keeps the battle with its news line.
    if let Ok(shots) = std::env::var("ARMADA_SHOTS") {
        let image = harness.render().expect("a renderer");
        let name = format!("battle_{}x{}.png", size.x, size.y);
        image.save(std::path::Path::new(&shots).join(name)).unwrap();
    }
    // A weapon chosen shows its hint: nothing below it moves either.
    harness.key_press(egui::Key::Num2);
    harness.run();
    assert_eq!(places(&harness), before, "with the torpedo's hint");
}

/// Opens a game against `level` in the window, fleet placed automatically, and
/// waits for the player's first move.
fn start_against(harness: &mut Harness<'_, Armada>, level: &str) {
    click(harness, level);
    click(harness, "Place automatically");
    click(harness, "Start the game");
    until_my_move(harness);
}

/// The player's own latest action (the computer may have moved since).
fn last_action(harness: &Harness<'_, Armada>) -> armada::rules::Action {
    let session = harness.state().session().unwrap();
    let me = session.seat();
    let history = session.table().history();
    history.iter().rev().find(|p| p.seat == me).unwrap().action
}

#[test]
fn each_weapon_is_aimed_and_fired_from_the_bar_and_the_radar_picture_does_not_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Easy");
    // Torpedo: along row 1 to the right from wherever the pointer is on that row.
    click(&mut harness, "Torpedo ×2 (2)");
    assert!(has(&harness, "Torpedo runs right — R turns it"));
    click_legal_centre(&mut harness);
    harness.run();
    assert!(matches!(
        last_action(&harness),
        armada::rules::Action::Torpedo(_)
    ));
    until_my_move(&mut harness);
    assert!(has(&harness, "Torpedo ×1 (2)"), "one torpedo is spent");
    // Air strike on a legal centre.
    click(&mut harness, "Air strike ×2 (3)");
    click_legal_centre(&mut harness);
    harness.run();
    assert!(matches!(
        last_action(&harness),
        armada::rules::Action::AirStrike(_)
    ));
    until_my_move(&mut harness);
    // Radar: its picture is shown…
    click(&mut harness, "Radar ×1 (4)");
    click_legal_centre(&mut harness);
    // The sweep turns (under a second), then the picture stays about three
    // seconds; each test frame is ¼ s.
    harness.step();
    step_until(&mut harness, 7, |h| {
        has(h, "in the square (shown for a moment)")
    });
    assert!(matches!(
        last_action(&harness),
        armada::rules::Action::Radar(_)
    ));
    assert!(has(&harness, "in the square (shown for a moment)"));
    // A screen reader hears the picture on the cells themselves.
    assert!(has(&harness, "(radar: a deck)") || has(&harness, "(radar: water)"));
    assert_radar_log_says_only_swept(&mut harness);
    let radar_spent = harness
        .query_all_by_label_contains("Radar ×0")
        .next()
        .is_some();
    assert!(radar_spent, "the radar is spent");
    drop(harness);
    // …and not again after the window is rebuilt over the same table.
    let mut harness = window(dir.path());
    assert!(has(&harness, "Enemy waters"));
    assert!(!has(&harness, "in the square (shown for a moment)"));
    assert!(!has(&harness, "(radar: a deck)") && !has(&harness, "(radar: water)"));
    assert_radar_log_says_only_swept(&mut harness);
}

/// RULES.md: the sweep's picture lives a moment on the board; the moves log (and so
/// a resumed table's rebuilt log) says only that the square was swept.
fn assert_radar_log_says_only_swept(harness: &mut Harness<'_, Armada>) {
    click(harness, "Moves");
    assert!(has(harness, ": square swept"), "the sweep is in the log");
    // The log once listed the picture: "radar F6: E5 deck, F5 water, …".
    assert!(
        !has(harness, "deck, ") && !has(harness, "water, "),
        "the log keeps no picture"
    );
}

/// Found looking at the window: the label read "Opponent's move" while the player's
/// own air-strike shells were still falling.
#[test]
fn the_turn_label_waits_for_the_players_last_shell() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Easy");
    click(&mut harness, "Air strike ×2 (3)");
    click_legal_centre(&mut harness);
    // Five shells, one every 160 ms; a test frame is a quarter of a second.
    harness.step();
    step_until(&mut harness, 2, |h| h.state().animating());
    assert!(harness.state().animating(), "the shells are falling");
    assert!(has(&harness, "Your shells are landing"));
    assert!(!has(&harness, "Opponent's move"));
    assert!(!has(&harness, "Your move"));
}

/// Found looking at the window: "Your shells are landing…" while a torpedo ran.
#[test]
fn the_banner_names_the_weapon_under_way() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Easy");
    click(&mut harness, "Torpedo ×2 (2)");
    click_legal_centre(&mut harness);
    harness.step();
    step_until(&mut harness, 2, |h| h.state().animating());
    assert!(harness.state().animating(), "the torpedo runs");
    assert!(has(&harness, "Your torpedo is running"));
    assert!(!has(&harness, "Your shells are landing"));
}

/// The enemy cells whose label says nothing is known there.
fn unknown_enemy_cells(harness: &Harness<'_, Armada>) -> usize {
    harness
        .query_all_by_label_contains("Enemy waters ")
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.contains(": unknown"))
        })
        .count()
}

/// An air strike is shown as it happens — its cells stay unknown while the shells
/// fall — and a click anywhere shows the outcome at once.
#[test]
fn a_click_skips_an_animation_to_its_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Easy");
    let before = unknown_enemy_cells(&harness);
    click(&mut harness, "Air strike ×2 (3)");
    click_legal_centre(&mut harness);
    harness.step();
    step_until(&mut harness, 2, |h| h.state().animating());
    assert!(harness.state().animating(), "the aircraft is on its way");
    assert_eq!(
        unknown_enemy_cells(&harness),
        before,
        "no shell has landed yet"
    );
    let corner = egui::Pos2::new(1200.0, 950.0);
    harness.hover_at(corner);
    harness.event(egui::Event::PointerButton {
        pos: corner,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.event(egui::Event::PointerButton {
        pos: corner,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.step();
    harness.step();
    // The computer may have taken its next action meanwhile (after a hit, another),
    // shown as it happens: the click ended the player's own.
    assert!(
        !harness.state().animating_mine(),
        "the click ended the animation"
    );
    assert!(
        unknown_enemy_cells(&harness) < before,
        "the strike's cells show what the shells found"
    );
}

/// With "Reduce motion" set, an action's outcome shows at once, and the setting is
/// remembered by the next window.
#[test]
fn reduce_motion_shows_outcomes_at_once_and_is_remembered() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Reduce motion");
    start_against(&mut harness, "Easy");
    let before = unknown_enemy_cells(&harness);
    click(&mut harness, "Torpedo ×2 (2)");
    click_legal_centre(&mut harness);
    for _ in 0..3 {
        harness.step();
        assert!(!harness.state().animating());
    }
    assert!(matches!(
        last_action(&harness),
        armada::rules::Action::Torpedo(_)
    ));
    assert!(!has(&harness, "Your shells are landing"));
    assert!(unknown_enemy_cells(&harness) < before);
    drop(harness);
    let prefs = std::fs::read_to_string(dir.path().join("window.json")).unwrap();
    assert!(prefs.contains("\"reduce_motion\": true"), "{prefs}");
}

/// After a hit the banner says the player acts again; the cells the last action
/// touched are named on the enemy board.
#[test]
fn a_hit_is_announced_as_another_action() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Easy");
    // Shots down the board until one hits while it is still the player's move.
    for _ in 0..100 {
        until_my_move(&mut harness);
        let session = harness.state().session().unwrap();
        let last = session.table().history().last();
        let mine = last.is_some_and(|p| p.seat == session.seat() && p.report.again);
        let sank = last.is_some_and(|p| {
            p.report
                .effects
                .iter()
                .any(|e| matches!(e, armada::rules::Effect::Sunk { .. }))
        });
        if mine && session.table().game().is_some_and(|g| !g.is_over()) {
            // A sinking is told apart from a hit, on the banner and the news line.
            if sank {
                assert!(has(&harness, "Sunk! Another action."));
                assert!(has(&harness, "You sank their "));
            } else {
                assert!(has(&harness, "Hit! Another action."));
                assert!(has(&harness, "Hit!"));
            }
            return;
        }
        assert!(!has(&harness, "Hit! Another action."));
        assert!(click_unknown_enemy_cell(&mut harness));
        harness.run();
    }
    panic!("a hundred shots and never a hit");
}

/// The player's sinking is loud: the news line names it and the sunk hull glows in
/// the enemy fleet line for a moment, then stops.
#[test]
fn a_sinking_glows_in_the_enemy_fleet_line_for_a_moment() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Easy");
    let now =
        |h: &Harness<'_, Armada>| (h.ctx.input(|i| i.time) * 1000.0) as armada::driver::Millis;
    for _ in 0..100 {
        until_my_move(&mut harness);
        let history =
            |h: &Harness<'_, Armada>| h.state().session().unwrap().table().history().len();
        let before = history(&harness);
        assert!(click_unknown_enemy_cell(&mut harness));
        harness.step();
        assert!(step_until(&mut harness, 8, |h| history(h) > before));
        let session = harness.state().session().unwrap();
        let last = session.table().history().last().unwrap();
        let sunk = last.report.effects.iter().find_map(|e| match e {
            armada::rules::Effect::Sunk { ship, .. } => Some(ship.len()),
            _ => None,
        });
        if last.seat != session.seat() || sunk.is_none() {
            continue;
        }
        let len = u8::try_from(sunk.unwrap()).unwrap();
        // The glow starts when the shot's fall has shown the sinking.
        assert_eq!(harness.state().flashing(now(&harness)), None);
        assert!(step_until(&mut harness, 32, |h| has(h, "You sank their ")));
        assert_eq!(harness.state().flashing(now(&harness)), Some(len));
        // For the docs: `ARMADA_SHOTS=dir` keeps the sinking.
        if let Ok(shots) = std::env::var("ARMADA_SHOTS") {
            let image = harness.render().expect("a renderer");
            image
                .save(std::path::Path::new(&shots).join("sink.png"))
                .unwrap();
        }
        for _ in 0..10 {
            harness.step();
        }
        assert_eq!(
            harness.state().flashing(now(&harness)),
            None,
            "the glow is over"
        );
        return;
    }
    panic!("a hundred shots and never a ship sunk");
}

/// Russian classic mode writes its columns А–К (no Й) on the board and in the cells'
/// names; Armada in Russian keeps A–J.
#[test]
fn russian_classic_mode_letters_its_columns_a_to_ka() {
    let dir = tempfile::tempdir().unwrap();
    let store = armada::store::Store::open(Some(dir.path())).unwrap();
    std::fs::write(
        dir.path().join("window.json"),
        r#"{"lang":"Ru","mode":{"Classic":10}}"#,
    )
    .unwrap();
    let mut harness = harness(Armada::new(Some(store)).without_pauses());
    let ru = Text::new(Lang::Ru);
    click(&mut harness, &ru.get("level-easy"));
    click(&mut harness, &ru.get("placement-auto"));
    let own = ru.get("board-own");
    assert!(has(&harness, &format!("{own} К10:")));
    assert!(has(&harness, &format!("{own} Д5:")));
    assert!(!has(&harness, &format!("{own} J10:")));
    assert!(!has(&harness, "Й"));
}

/// Found looking at the 12×12 board: its five-decker was called a "boat".
#[test]
fn the_twelve_board_names_its_five_decker() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Classic 12×12, shots only");
    click(&mut harness, "Easy");
    assert!(has(&harness, "five-decker (5 decks)"));
    assert!(!has(&harness, "boat (5 decks)"));
}

/// The enemy cells whose label says they are under the aim, and those refused.
fn aim_marks(harness: &Harness<'_, Armada>) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut aimed = BTreeSet::new();
    let mut refused = BTreeSet::new();
    for node in harness.query_all_by_label_contains("Enemy waters ") {
        let label = node.accesskit_node().label().unwrap_or_default();
        let cell = label["Enemy waters ".len()..]
            .split(':')
            .next()
            .unwrap()
            .to_string();
        if label.contains("(aimed)") {
            aimed.insert(cell);
        } else if label.contains("(cannot aim here)") {
            refused.insert(cell);
        }
    }
    (aimed, refused)
}

fn cells(names: &str) -> BTreeSet<String> {
    names.split(' ').map(str::to_string).collect()
}

#[test]
fn the_aim_is_previewed_turned_by_r_or_a_right_click_and_a_refused_square_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Easy");
    // The pointer that clicked Start may rest over the enemy's board: take it away,
    // so the keyboard's cursor aims.
    harness.event(egui::Event::PointerGone);
    harness.run();
    let row = cells("A1 B1 C1 D1 E1 F1 G1 H1 I1 J1");
    let column = cells("A1 A2 A3 A4 A5 A6 A7 A8 A9 A10");
    // A shot aims at the cursor (A1) alone.
    assert_eq!(aim_marks(&harness).0, cells("A1"));
    // The torpedo (key 2) runs along the cursor's row; R turns it right, down, left, up, right and the
    // preview follows: a row, a column, a row, a column.
    harness.key_press(egui::Key::Num2);
    harness.run();
    for (arrow, line) in [
        ("right", &row),
        ("down", &column),
        ("left", &row),
        ("up", &column),
    ] {
        assert!(has(&harness, &format!("Torpedo runs {arrow} — R turns it")));
        assert_eq!(&aim_marks(&harness).0, line, "heading {arrow}");
        harness.key_press(egui::Key::R);
        harness.run();
    }
    assert!(has(&harness, "Torpedo runs right — R turns it"));
    // A right-click on the chart turns it too; the preview follows the pointer (C5).
    harness
        .get_by_label_contains("Enemy waters C5:")
        .click_secondary();
    harness.run();
    assert!(has(&harness, "Torpedo runs down — R turns it"));
    assert_eq!(
        aim_marks(&harness).0,
        cells("C1 C2 C3 C4 C5 C6 C7 C8 C9 C10")
    );
    // The radar (key 4) at a corner: its square would leave the board, so the cell
    // is shown refused, nothing is aimed, and the line under the chart says why.
    harness.key_press(egui::Key::Num4);
    harness.get_by_label_contains("Enemy waters A1:").hover();
    harness.run();
    let (aimed, refused) = aim_marks(&harness);
    assert!(aimed.is_empty(), "{aimed:?}");
    assert_eq!(refused, cells("A1"));
    assert!(has(
        &harness,
        "Not here: the whole 3×3 square must lie on the board"
    ));
    // One cell in, the whole square is aimed.
    harness.get_by_label_contains("Enemy waters B2:").hover();
    harness.run();
    assert_eq!(
        aim_marks(&harness),
        (cells("A1 B1 C1 A2 B2 C2 A3 B3 C3"), BTreeSet::new())
    );
}

/// Both place automatically; the host's Start waits for the guest's Ready; the host
/// sets its timer switch to `timer` beside Start, and the game runs with the move
/// timer so on both sides. Who moves first.
/// The host's move-timer switch on the placement screen.
const TIMER_SWITCH: &str = "Move timer: 15 seconds a move";

fn start_friend_game(
    host: &mut Harness<'_, Armada>,
    guest: &mut Harness<'_, Armada>,
    timer: bool,
) -> armada::rules::Seat {
    let start_enabled = |h: &Harness<'_, Armada>| {
        !h.get_by_label("Start the game")
            .accesskit_node()
            .is_disabled()
    };
    click(host, "Place automatically");
    assert!(has(host, "The opponent is still placing their fleet"));
    assert!(!start_enabled(host), "Start waits for the guest's Ready");
    assert!(!has(guest, TIMER_SWITCH), "the timer is the host's switch");
    let switch = |h: &Harness<'_, Armada>| h.state().session().unwrap().timer_switch();
    if switch(host) != timer {
        click(host, TIMER_SWITCH);
        until(host, "the timer switch", |h| switch(h) == timer);
    }
    click(guest, "Place automatically");
    click(guest, "Ready");
    both_until(host, guest, "the guest's Ready", |h, _| {
        has(h, "The opponent is ready.") && start_enabled(h)
    });
    // The guest's fleet stays on screen while it waits, and it says for what.
    assert!(has(guest, "Waiting for the host to start the game"));
    let decks = guest.state().session().unwrap().fleet().unwrap().decks();
    for cell in &decks {
        let name = format!(
            "Your fleet {}{}: ship",
            (b'A' + cell.col()) as char,
            cell.row() + 1
        );
        assert!(has(guest, &name), "{name}");
    }
    click(host, "Start the game");
    both_until(host, guest, "the battle", |h, g| {
        has(h, "Offer a draw") && has(g, "Offer a draw")
    });
    for side in [&*host, &*guest] {
        assert_eq!(side.state().session().unwrap().table().timer(), timer);
    }
    let session = host.state().session().unwrap();
    session.table().game().unwrap().mover()
}

/// Steps both windows, with real time for the network, until `done` holds.
pub(crate) fn both_until(
    a: &mut Harness<'_, Armada>,
    b: &mut Harness<'_, Armada>,
    what: &str,
    done: impl Fn(&Harness<'_, Armada>, &Harness<'_, Armada>) -> bool,
) {
    // A guard against a hang, not a measure: the network side runs on real time.
    let give_up = std::time::Instant::now() + std::time::Duration::from_mins(2);
    let news = std::time::Duration::from_millis(10);
    while std::time::Instant::now() < give_up {
        if done(a, b) {
            return;
        }
        // Each window wakes at its network's next news (or after a moment), then
        // draws a frame with it.
        a.state_mut().wait_for_network(news);
        b.state_mut().wait_for_network(news);
        a.step();
        b.step();
    }
    if let Ok(shots) = std::env::var("ARMADA_DEBUG_SHOTS") {
        a.render().unwrap().save(format!("{shots}/a.png")).unwrap();
        b.render().unwrap().save(format!("{shots}/b.png")).unwrap();
    }
    panic!(
        "waited in vain for {what}: {:?} / {:?}",
        labels(a),
        labels(b)
    );
}

/// What a window says in words (its boards' cells left out), for a failure's message.
pub(crate) fn labels(h: &Harness<'_, Armada>) -> Vec<String> {
    h.query_all_by_label_contains(" ")
        .filter_map(|n| {
            let node = n.accesskit_node();
            node.label().or_else(|| node.value())
        })
        // A cell says "B7: water": its name is short.
        .filter(|l| l.split_once(": ").is_none_or(|(cell, _)| cell.len() > 3))
        .filter(|l| !l.contains("waters") && !l.contains("fleet "))
        .collect()
}

/// The host's window opens a friend table; its invite link.
fn open_table(host: &mut Harness<'static, Armada>) -> String {
    click(host, "Open a table");
    until(host, "the invite", |h| h.state().invite().is_some());
    // A copy says it copied, beside its button.
    assert!(!has(host, "Copied!"));
    click(host, "Copy the invite");
    assert!(has(host, "Copied!"));
    host.state().invite().unwrap().to_owned()
}

/// The guest's window joins by the pasted `link`; both then place their fleets.
fn join_by_paste(
    host: &mut Harness<'static, Armada>,
    guest: &mut Harness<'static, Armada>,
    link: &str,
) {
    let field = "Your friend's code (4821-harbor-anchor) or invite";
    guest.get_by_label(field).focus();
    guest.run();
    guest.get_by_label(field).type_text(link);
    guest.run();
    click(guest, "Join");
    both_until(host, guest, "both placing", |h, g| {
        has(h, "Place your fleet") && has(g, "Place your fleet")
    });
}

/// The window of `mover` offers a draw, and the other shows the offer; returns
/// (offerer, answerer).
fn offer_draw<'a>(
    host: &'a mut Harness<'static, Armada>,
    guest: &'a mut Harness<'static, Armada>,
    mover: armada::rules::Seat,
) -> (
    &'a mut Harness<'static, Armada>,
    &'a mut Harness<'static, Armada>,
) {
    let (offerer, answerer) = if mover == armada::rules::Seat::Host {
        (host, guest)
    } else {
        (guest, host)
    };
    click(offerer, "Offer a draw");
    both_until(offerer, answerer, "the offer", |_, a| {
        has(a, "Your opponent offers a draw.")
    });
    (offerer, answerer)
}

#[test]
fn two_windows_in_one_process_agree_a_draw_play_again_with_seats_swapped_and_decline_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = in_process_window(&dir.path().join("host"));
    let mut guest = in_process_window(&dir.path().join("guest"));
    let link = open_table(&mut host);
    let invite = armada_proto::Invite::parse(&link).unwrap();
    let addrs: Vec<String> = invite
        .addrs
        .iter()
        .map(|a| libp2p::Multiaddr::try_from(a.clone()).unwrap().to_string())
        .collect();
    assert!(
        !addrs.is_empty() && addrs.iter().all(|a| a.starts_with("/memory/")),
        "the table is inside this process: {addrs:?}"
    );
    join_by_paste(&mut host, &mut guest, &link);
    // A new host's timer is off until turned on: friends are not hurried by default.
    assert!(!host.state().session().unwrap().timer_switch());
    assert_eq!(
        host.get_by_label(TIMER_SWITCH).accesskit_node().toggled(),
        Some(egui::accesskit::Toggled::False)
    );
    // The first game without the move timer, the second with it.
    let first = start_friend_game(&mut host, &mut guest, false);
    // Whoever moves offers a draw; the other accepts it.
    let (_, answerer) = offer_draw(&mut host, &mut guest, first);
    click(answerer, "Accept");
    both_until(&mut host, &mut guest, "the verdicts", |h, g| {
        proven(h, "Opponent\'s") && proven(g, "Opponent\'s")
    });
    assert!(has(&host, "A draw.") && has(&guest, "A draw."));
    assert!(has(&host, "Both agreed to a draw."));
    // Play again: the friend sees the request as such, and the asker that it waits;
    // then a new game, the other side moves first, the score kept.
    click(&mut host, "Play again");
    both_until(
        &mut host,
        &mut guest,
        "the request to play again",
        |h, g| has(g, "Your friend wants another game") && has(h, "You asked for another game"),
    );
    click(&mut guest, "Play again");
    both_until(&mut host, &mut guest, "the second placement", |h, g| {
        has(h, "Place your fleet") && has(g, "Place your fleet")
    });
    assert!(has(&host, "Score: you 0.5 — 0.5 opponent"));
    assert!(
        !host.state().session().unwrap().timer_switch(),
        "the switch stays where the host left it"
    );
    let second = start_friend_game(&mut host, &mut guest, true);
    assert_eq!(second, first.other(), "seats swap who moves first");
    // This time the offer is declined: both see it, and the game goes on.
    let (offerer, answerer) = offer_draw(&mut host, &mut guest, second);
    click(answerer, "Decline");
    both_until(offerer, answerer, "the refusal", |o, a| {
        has(o, "Your opponent declined the draw.") && has(a, "You declined the draw.")
    });
    assert!(has(offerer, "Your move"), "the offerer still has the move");
    assert!(
        offerer
            .state()
            .session()
            .unwrap()
            .table()
            .game()
            .unwrap()
            .ending()
            .is_none()
    );
}

#[test]
fn a_friend_game_resumes_after_the_window_is_closed_and_opened_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = in_process_window(&dir.path().join("host"));
    let mut guest = in_process_window(&dir.path().join("guest"));
    let link = open_table(&mut host);
    join_by_paste(&mut host, &mut guest, &link);
    // Without the move timer: nothing happens on its own while the guest is away,
    // and the reopened window must still show the table at once.
    let first = start_friend_game(&mut host, &mut guest, false);
    // The guest's window closes mid-game: no goodbye, the table stays open.
    drop(guest);
    until(&mut host, "the lost link", |h| {
        has(h, "Connection lost — reconnecting…")
    });
    // The host moves first and still fires while the link is down: the shot is
    // signed and saved at once, and waits for its answer.
    assert_eq!(first, armada::rules::Seat::Host);
    assert!(click_unknown_enemy_cell(&mut host));
    until(&mut host, "the shot in flight", |h| {
        h.state().session().unwrap().table().pending().is_some()
    });
    let mut guest = in_process_window(&dir.path().join("guest"));
    assert!(has(&guest, "Resume the game with your friend"));
    click(&mut guest, "Resume the game with your friend");
    both_until(&mut host, &mut guest, "the game again", |h, g| {
        has(g, "Offer a draw") && has(h, "Connected directly") && has(g, "Connected directly")
    });
    let table = |h: &Harness<'_, Armada>| h.state().session().unwrap().table().clone();
    assert!(
        !table(&host).left(armada::rules::Seat::Guest),
        "nobody left"
    );
    assert!(
        table(&guest).game().unwrap().ending().is_none(),
        "the game goes on"
    );
    both_until(
        &mut host,
        &mut guest,
        "the answer to the shot fired offline",
        |h, g| table(h).history().len() == 1 && table(g).history().len() == 1,
    );
    // The game goes on where it was: whoever moves fires, the other side sees it.
    let first = table(&host).game().unwrap().mover();
    let (mover, other) = if first == armada::rules::Seat::Host {
        (&mut host, &mut guest)
    } else {
        (&mut guest, &mut host)
    };
    assert!(click_unknown_enemy_cell(mover));
    mover.run();
    both_until(mover, other, "the shot on both sides", |m, o| {
        table(m).history().len() == 2 && table(o).history().len() == 2
    });
    // And it ends properly: a draw, both verdicts honest.
    let mover = table(&host).game().unwrap().mover();
    let (_, answerer) = offer_draw(&mut host, &mut guest, mover);
    click(answerer, "Accept");
    both_until(&mut host, &mut guest, "the verdicts", |h, g| {
        proven(h, "Opponent\'s") && proven(g, "Opponent\'s")
    });
}

#[test]
fn two_windows_play_a_whole_game_by_clicks_over_loopback() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = friend_window(&dir.path().join("host"));
    let mut guest = friend_window(&dir.path().join("guest"));
    click(&mut host, "Open a table");
    until(&mut host, "the invite", |h| h.state().invite().is_some());
    // The invite is copied to the clipboard by its button.
    host.get_by_label("Copy the invite").click();
    host.step();
    let link = host.state().invite().unwrap().to_owned();
    assert!(
        host.output()
            .platform_output
            .commands
            .contains(&egui::OutputCommand::CopyText(link.clone())),
        "the invite is on the clipboard"
    );
    join_by_paste(&mut host, &mut guest, &link);
    start_friend_game(&mut host, &mut guest, true);
    let history = |h: &Harness<'_, Armada>| h.state().session().unwrap().table().history().len();
    let over = |h: &Harness<'_, Armada>| {
        let session = h.state().session().unwrap();
        session.table().game().is_some_and(|g| g.ending().is_some())
    };
    let mut shots = 0;
    while !over(&host) {
        let mover = host
            .state()
            .session()
            .unwrap()
            .table()
            .game()
            .unwrap()
            .mover();
        let (me, other) = if mover == armada::rules::Seat::Host {
            (&mut host, &mut guest)
        } else {
            (&mut guest, &mut host)
        };
        let before = history(me);
        assert!(
            click_unknown_enemy_cell(me),
            "an unknown cell while the game goes on"
        );
        me.run();
        both_until(me, other, "the shot on both sides", |m, o| {
            history(m) > before && history(o) == history(m)
        });
        shots += 1;
        assert!(shots < 250, "the game does not end");
    }
    let timed = host
        .state()
        .session()
        .unwrap()
        .table()
        .history()
        .iter()
        .filter(|p| p.timeout)
        .count();
    assert_eq!(timed, 0, "every shot was a click, none the move timer's");
    both_until(&mut host, &mut guest, "the verdicts", |h, g| {
        proven(h, "Opponent\'s") && proven(g, "Opponent\'s")
    });
    assert!(has(&host, "Every ship of the losing fleet was sunk."));
    let winners = [&host, &guest].map(|h| has(h, "You win!"));
    assert_eq!(winners.iter().filter(|w| **w).count(), 1, "one winner");
    for h in [&host, &guest] {
        let session = h.state().session().unwrap();
        assert!(matches!(
            session.table().settled(),
            Some(Verdict::Honest(_))
        ));
    }
}

/// A screen in `lang`, rendered (wgpu on the machine's Vulkan driver, Mesa's
/// lavapipe in CI) and compared with the committed image `name`: a missing glyph
/// would draw as a box and differ.
fn snapshot_in(lang: Lang, name: &str, level: Option<&str>) {
    let dir = tempfile::tempdir().unwrap();
    let store = armada::store::Store::open(Some(dir.path())).unwrap();
    let prefs = armada::ui::Prefs {
        lang,
        ..armada::ui::Prefs::default()
    };
    std::fs::write(
        dir.path().join("window.json"),
        serde_json::to_vec(&prefs).unwrap(),
    )
    .unwrap();
    let mut harness = Harness::builder()
        .with_size(egui::Vec2::new(1000.0, 640.0))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut Armada| app.show(ui, 0),
            Armada::new(Some(store)).without_pauses(),
        );
    harness.run();
    if let Some(level) = level {
        click(&mut harness, level);
    }
    // A few hundred pixels of slack for another CPU's rasteriser; a missing glyph
    // changes far more.
    let options = egui_kittest::SnapshotOptions::new().failed_pixel_count_threshold(300);
    harness.snapshot_options(name, &options);
}

#[test]
fn a_ukrainian_screen_renders_every_glyph() {
    snapshot_in(Lang::Uk, "home_uk", None);
}

#[test]
fn a_russian_screen_renders_every_glyph() {
    snapshot_in(Lang::Ru, "placement_ru", Some("Средний"));
}

#[test]
fn the_lan_search_stays_off_where_discovery_is_off() {
    // Tests never multicast: with discovery off the window says so and sends nothing.
    let dir = tempfile::tempdir().unwrap();
    let mut harness = friend_window(dir.path());
    click(&mut harness, "Find tables on the LAN");
    assert!(has(&harness, "Discovery on the LAN is switched off."));
}

/// The guest's window closes for good while the guest is to move (the timer on): the
/// host shows the lost link, and once the move time and the grace (1 s here) are
/// past, claims the forfeit and shows the opponent gone, with the claim on its record.
#[test]
fn an_opponent_gone_past_the_grace_is_shown_gone_with_the_forfeit_claimed() {
    use armada::rules::Seat;

    let dir = tempfile::tempdir().unwrap();
    let mut host = harness(friend_app(&dir.path().join("host"), "/memory/0").with_grace(1_000));
    let mut guest = in_process_window(&dir.path().join("guest"));
    let link = open_table(&mut host);
    join_by_paste(&mut host, &mut guest, &link);
    let first = start_friend_game(&mut host, &mut guest, true);
    assert_eq!(first, Seat::Host, "the host opens the table's first game");
    // The host fires until it misses and the move passes to the guest.
    let mover =
        |h: &Harness<'_, Armada>| h.state().session().unwrap().table().game().unwrap().mover();
    while mover(&host) == Seat::Host {
        let fired = host.state().session().unwrap().table().history().len();
        assert!(click_unknown_enemy_cell(&mut host));
        both_until(&mut host, &mut guest, "the shot's answer", |h, g| {
            let seen =
                |w: &Harness<'_, Armada>| w.state().session().unwrap().table().history().len();
            seen(h) > fired && seen(g) == seen(h)
        });
    }
    drop(guest);
    until(&mut host, "the lost link", |h| {
        has(h, "Connection lost — reconnecting…")
    });
    // The guest's 15 s and the grace run out; the host claims, waits the grace once
    // more for a refutation, and gives up on the link.
    // That is real time on the network side's clock: wait for its news, with room
    // for a loaded machine (about 17 s are needed).
    let give_up = std::time::Instant::now() + std::time::Duration::from_mins(2);
    while std::time::Instant::now() < give_up {
        if has(
            &host,
            "Your opponent is gone: a forfeit is claimed on the record.",
        ) {
            break;
        }
        host.state_mut()
            .wait_for_network(std::time::Duration::from_millis(500));
        host.step();
    }
    assert!(has(
        &host,
        "Your opponent is gone: a forfeit is claimed on the record."
    ));
    let session = host.state().session().unwrap();
    let claim = session.table().pending_claim().expect("a forfeit claim");
    assert_eq!(claim.claimant, Seat::Host);
    assert_eq!(claim.owed, armada_proto::Owed::Move);
}

/// A saved game this client cannot read (here its transcript says protocol version 2)
/// is neither reopened nor offered, and the home screen says a table cannot be read;
/// a game whose saved state is damaged says why it cannot be opened.
#[test]
fn a_saved_table_that_cannot_be_read_is_set_aside_with_a_word() {
    let saved_game = || {
        let dir = tempfile::tempdir().unwrap();
        let mut harness = window(dir.path());
        start_against(&mut harness, "Medium");
        let id = hex::encode(session_id(&harness));
        drop(harness);
        (dir, id)
    };
    let (dir, id) = saved_game();
    let path = dir.path().join("tables").join(format!("{id}.armada"));
    let mut bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes[8], 3, "the head's version follows the magic");
    bytes[8] = 2;
    std::fs::write(&path, &bytes).unwrap();
    let harness = window(dir.path());
    assert!(harness.state().session().is_none(), "not reopened");
    assert!(!has(&harness, "Resume the unfinished sea battle"));
    assert!(has(&harness, "One saved table cannot be read"));

    let (dir, id) = saved_game();
    let path = dir.path().join("tables").join(format!("{id}.session"));
    std::fs::write(&path, b"not a session").unwrap();
    let mut harness = window(dir.path());
    harness.run();
    assert!(harness.state().session().is_none(), "not reopened");
    assert!(has(&harness, "That game cannot be opened: "));
}

/// The window over the data in `dir`, on the test's own public network: the relay
/// at `bootstrap` (on loopback) is its whole DHT.
fn public_window(dir: &std::path::Path, bootstrap: &str) -> Harness<'static, Armada> {
    let store = armada::store::Store::open(Some(dir)).unwrap();
    let config = armada::net::Config {
        listen: vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()],
        discovery: false,
        public: armada::net::Public::Bootstrap(vec![bootstrap.parse().unwrap()]),
        ..armada::net::Config::default()
    };
    harness(Armada::new(Some(store)).with_network(config))
}

#[test]
fn the_window_shows_a_short_code_first_and_a_friend_joins_by_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_relay, network) = super::codes::network(dir.path());
    let mut harness = public_window(&dir.path().join("host"), &network);
    click(&mut harness, "Open a table");
    until(&mut harness, "the short code, on screen", |h| {
        h.state()
            .short_code()
            .is_some_and(|code| has(h, code) && has(h, "Read this code to your friend"))
    });
    let code = harness.state().short_code().unwrap().to_owned();
    assert!(armada_proto::ShortCode::parse(&code).is_ok(), "{code}");
    assert!(has(&harness, "Copy the code"));
    // The test's public network is one relay on loopback, which also dials the host
    // back: the window says the table is reached directly (a verdict that may come
    // after the code is shown).
    until(&mut harness, "how far the table reaches", |h| {
        has(
            h,
            "Your friend can join from anywhere: this computer is reachable from the internet.",
        )
    });
    // The invite is still there, for those who want it.
    assert!(has(&harness, "Or give them the invite"));
    let guest = super::net::Process::start(
        &[
            "join",
            &code,
            "--bot",
            "easy",
            "--listen",
            "/ip4/127.0.0.1/tcp/0",
            "--bootstrap",
            &network,
        ],
        &dir.path().join("guest"),
    );
    until(&mut harness, "the placement", |h| {
        has(h, "Place your fleet")
    });
    assert!(guest.wait_for("the host took the code"));
}

#[test]
fn a_window_host_whom_no_relay_answers_says_only_a_friend_nearby_can_join() {
    let dir = tempfile::tempdir().unwrap();
    // A relay's address with nothing behind it any more: a public network that is
    // silent (the host looks for relays for 30 s, then gives up).
    let network = {
        let (relay, network) = super::codes::network(dir.path());
        drop(relay);
        network
    };
    let mut harness = public_window(&dir.path().join("host"), &network);
    click(&mut harness, "Open a table");
    until(&mut harness, "the search, on screen", |h| {
        has(h, "Finding a way in for a friend beyond this LAN")
    });
    until(&mut harness, "the search's end, on screen", |h| {
        has(
            h,
            "No relay answered on the public network: only a friend on this LAN, or \
             one who can reach this computer directly, can join.",
        )
    });
    assert!(
        !has(&harness, "Finding a way in"),
        "the search's line gave way"
    );
    // The invite follows (the code, if any, is looked up in that silent network
    // first), and the line stays.
    until(&mut harness, "the invite, all the same", |h| {
        h.state().invite().is_some() && has(h, "No relay answered on the public network")
    });
}

#[test]
fn the_window_joins_by_a_short_code_and_names_a_mistyped_word() {
    let dir = tempfile::tempdir().unwrap();
    let (_relay, network) = super::codes::network(dir.path());
    let host = super::net::Process::start(
        &[
            "host",
            "--bot",
            "medium",
            "--listen",
            "/ip4/127.0.0.1/tcp/0",
            "--bootstrap",
            &network,
        ],
        &dir.path().join("host"),
    );
    host.line_starting("table open. Read this code to your friend:");
    let code = host.line_starting("    ").trim().to_string();
    let mut harness = public_window(&dir.path().join("guest"), &network);
    let field = "Your friend's code (4821-harbor-anchor) or invite";
    harness.get_by_label(field).focus();
    harness.run();
    harness.get_by_label(field).type_text("4821-harbr-anchor");
    harness.run();
    click(&mut harness, "Join");
    assert!(has(&harness, "That is neither a code nor an invite"));
    assert!(has(&harness, "did you mean \"harbor\"?"));
    harness.get_by_label(field).focus();
    harness.run();
    for _ in 0.."4821-harbr-anchor".chars().count() {
        harness.key_press(egui::Key::Backspace);
    }
    harness.run();
    harness.get_by_label(field).type_text(&code);
    harness.run();
    click(&mut harness, "Join");
    until(&mut harness, "the placement", |h| {
        has(h, "Place your fleet")
    });
    assert!(host.wait_for("said the right code"));
}

#[test]
fn three_wrong_codes_at_the_window_show_why_and_a_new_code() {
    let dir = tempfile::tempdir().unwrap();
    let (_relay, network) = super::codes::network(dir.path());
    let mut harness = public_window(&dir.path().join("host"), &network);
    click(&mut harness, "Open a table");
    until(&mut harness, "the short code", |h| {
        h.state().short_code().is_some()
    });
    let first = harness.state().short_code().unwrap().to_owned();
    for nth in 0..3 {
        let stranger = super::net::Process::start(
            &[
                "join",
                &super::codes::wrong_words(&first, nth),
                "--listen",
                "/ip4/127.0.0.1/tcp/0",
                "--bootstrap",
                &network,
            ],
            &dir.path().join(format!("stranger{nth}")),
        );
        let (code, stderr) = stranger.finish_within(std::time::Duration::from_secs(90));
        assert_ne!(code, 0);
        assert!(stderr.contains("did not take these words"), "{stderr}");
    }
    until(
        &mut harness,
        "the withdrawn code's note and a new code",
        |h| {
            has(h, "Someone tried a wrong code three times")
                && h.state()
                    .short_code()
                    .is_some_and(|c| c != first && has(h, c))
        },
    );
    assert!(
        !has(&harness, &first),
        "the withdrawn code is gone from the screen"
    );
}

/// The window over the data in `dir`, its language set to `lang` beforehand.
pub(crate) fn window_speaking(dir: &std::path::Path, lang: Lang) -> Harness<'static, Armada> {
    let prefs = armada::ui::Prefs {
        lang,
        ..armada::ui::Prefs::default()
    };
    std::fs::write(dir.join("window.json"), serde_json::to_vec(&prefs).unwrap()).unwrap();
    window(dir)
}

/// In each language the top bar's Rules opens the rules in that language in place
/// of the home screen, each game's a click away, and Back returns to it; `?` typed into the invite field stays
/// there.
#[test]
fn the_rules_open_from_home_in_each_language_and_back_returns_home() {
    for lang in Lang::ALL {
        let dir = tempfile::tempdir().unwrap();
        let mut harness = window_speaking(dir.path(), lang);
        let text = Text::new(lang);
        let home = text.get("home-computer");
        assert!(has(&harness, &home), "{lang:?}");
        let field = text.get("home-invite-hint");
        harness.get_by_label(&field).focus();
        harness.run();
        harness.key_press(egui::Key::Questionmark);
        harness.run();
        assert!(
            has(&harness, &home),
            "{lang:?}: `?` in a text field is text"
        );
        click(&mut harness, &text.get("rules-button"));
        for id in [
            "rules-title",
            "rules-board-title",
            "rules-turns-title",
            "rules-torpedo-title",
            "rules-air-title",
            "rules-radar-title",
            "rules-ring-title",
            "rules-timer-title",
            "rules-end-title",
        ] {
            assert!(has(&harness, &text.get(id)), "{lang:?} shows {id}");
        }
        assert!(
            !has(&harness, &home),
            "{lang:?}: the rules stand in for home"
        );
        // The other game's rules are one click away, with their drawings' captions.
        click(&mut harness, &text.get("rules-of-archimedes"));
        for id in [
            "arch-rules-title",
            "arch-rules-move-title",
            "arch-rules-sight-title",
            "arch-rules-sink-title",
            "arch-rules-end-title",
            "arch-rules-move-caption",
            "arch-rules-sight-caption",
            "arch-rules-sink-caption",
        ] {
            assert!(has(&harness, &text.get(id)), "{lang:?} shows {id}");
        }
        assert!(!has(&harness, &text.get("rules-title")), "{lang:?}");
        if lang == Lang::En
            && let Ok(shots) = std::env::var("ARMADA_SHOTS")
        {
            let image = harness.render().expect("a renderer");
            image
                .save(std::path::Path::new(&shots).join("rules_archimedes.png"))
                .unwrap();
        }
        // And the third game's, drawn from its engine.
        click(&mut harness, &text.get("rules-of-icehouse"));
        for id in [
            "ice-rules-title",
            "ice-rules-fleets-title",
            "ice-rules-step-title",
            "ice-rules-fire-title",
            "ice-rules-blocked-title",
            "ice-rules-turn-title",
            "ice-rules-end-title",
            "ice-rules-step-caption",
            "ice-rules-fire-caption",
            "ice-rules-blocked-caption",
        ] {
            assert!(has(&harness, &text.get(id)), "{lang:?} shows {id}");
        }
        assert!(!has(&harness, &text.get("arch-rules-title")), "{lang:?}");
        if matches!(lang, Lang::En | Lang::Uk)
            && let Ok(shots) = std::env::var("ARMADA_SHOTS")
        {
            let image = harness.render().expect("a renderer");
            let name = format!("rules_icehouse_{lang:?}.png").to_lowercase();
            image.save(std::path::Path::new(&shots).join(name)).unwrap();
        }
        click(&mut harness, &text.get("rules-of-sea"));
        assert!(has(&harness, &text.get("rules-title")), "{lang:?}");
        click(&mut harness, &text.get("rules-back"));
        assert!(has(&harness, &home), "{lang:?}: Back returns home");
        assert!(!has(&harness, &text.get("rules-title")), "{lang:?}");
    }
}

/// Over a battle against the computer, F1 and `?` show the rules and hide them
/// again, Escape closes them, the board's keys do nothing meanwhile, and the game
/// comes back as it was and goes on.
#[test]
fn the_rules_open_over_a_battle_by_key_and_leave_it_as_it_was() {
    use egui::Key;
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    start_against(&mut harness, "Easy");
    let moves = |h: &Harness<'_, Armada>| h.state().session().unwrap().table().history().len();
    let before = moves(&harness);
    let title = Text::new(Lang::En).get("rules-title");
    for (open, close) in [
        (Key::F1, Key::F1),
        (Key::Questionmark, Key::Questionmark),
        (Key::F1, Key::Escape),
        (Key::Questionmark, Key::F1),
    ] {
        harness.key_press(open);
        harness.run();
        assert!(has(&harness, &title), "{open:?} opens the rules");
        assert!(!has(&harness, "Enemy waters"));
        // Enter fires on the board; under the rules it does nothing.
        harness.key_press(Key::Enter);
        harness.run();
        harness.key_press(close);
        harness.run();
        assert!(!has(&harness, &title), "{close:?} closes the rules");
        assert!(has(&harness, "Enemy waters"));
        assert!(has(&harness, "Your move"));
        assert_eq!(moves(&harness), before, "the game waited");
    }
    click(&mut harness, "Rules");
    assert!(has(&harness, &title));
    click(&mut harness, "Back");
    assert!(has(&harness, "Your move"));
    assert_eq!(moves(&harness), before);
    assert!(click_unknown_enemy_cell(&mut harness));
    harness.run();
    assert!(moves(&harness) > before, "the game goes on");
}

#[test]
fn the_rules_tabs_stay_put_whichever_page_is_open() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Rules");
    let tabs = ["The sea battle", "Archimedes", "Icehouse Armada"];
    let places = |h: &Harness<'_, Armada>| tabs.map(|tab| h.get_by_label(tab).rect());
    let before = places(&harness);
    for (tab, title) in [
        ("Archimedes", "How to play Archimedes"),
        ("Icehouse Armada", "How to play Icehouse Armada"),
        ("The sea battle", "How to play Armada"),
    ] {
        click(&mut harness, tab);
        assert!(has(&harness, title), "{tab}");
        assert_eq!(places(&harness), before, "with {tab} open");
    }
}

/// Clicks `label` through AccessKit: where the window is small, a button may lie
/// below the fold.
fn press(harness: &mut Harness<'_, Armada>, label: &str) {
    harness
        .get_all_by_label(label)
        .next()
        .unwrap_or_else(|| panic!("no {label:?}"))
        .click_accesskit();
    harness.run();
}

/// Found looking at the results in a 1100×760 window: the boards fell below the
/// fold. The headline, every cell of both boards, the verdicts and the buttons are
/// all in view without scrolling, on the Armada board and on the classic 12×12.
#[test]
fn the_results_fit_a_1100_by_760_window_without_scrolling() {
    let view = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::Vec2::new(1100.0, 760.0));
    for (mode, side) in [(None, 10), (Some("Classic 12×12, shots only"), 12)] {
        let dir = tempfile::tempdir().unwrap();
        let store = armada::store::Store::open(Some(dir.path())).unwrap();
        let app = Armada::new(Some(store)).without_pauses();
        let mut harness = sized_harness(app, view.size());
        if let Some(mode) = mode {
            press(&mut harness, mode);
        }
        press(&mut harness, "Easy");
        press(&mut harness, "Place automatically");
        press(&mut harness, "Start the game");
        until_my_move(&mut harness);
        press(&mut harness, "Resign");
        press(&mut harness, "Yes, resign");
        for _ in 0..10 {
            harness.step();
        }
        let inside = |label: &str| {
            let node = harness.get_all_by_label_contains(label).next();
            let rect = node.unwrap_or_else(|| panic!("no {label:?}")).rect();
            assert!(
                view.contains_rect(rect),
                "{label:?} at {rect:?}, {side}×{side}"
            );
        };
        for label in [
            "Game over",
            "You lose.",
            "You resigned.",
            "Play again",
            "Save the transcript",
            "Your answers: ",
            "Opponent's answers: ",
            "Against the computer (Easy)",
        ] {
            inside(label);
        }
        // The results' Home, not the top bar's: the last one laid out.
        let home = harness.get_all_by_label("Home").last().unwrap().rect();
        assert!(view.contains_rect(home), "Home at {home:?}");
        for board in ["Your fleet ", "Enemy waters "] {
            let cells: Vec<_> = harness
                .query_all_by_label_contains(board)
                .filter(|n| n.accesskit_node().label().is_some_and(|l| l.contains(": ")))
                .map(|n| (n.accesskit_node().label().unwrap(), n.rect()))
                .collect();
            assert_eq!(cells.len(), side * side, "{board}{side}×{side}");
            for (label, rect) in cells {
                assert!(view.contains_rect(rect), "{label} at {rect:?}");
            }
        }
        // For the docs: `ARMADA_SHOTS=dir` keeps the results.
        if let Ok(shots) = std::env::var("ARMADA_SHOTS") {
            let image = harness.render().expect("a renderer");
            let name = format!("results_{side}.png");
            image.save(std::path::Path::new(&shots).join(name)).unwrap();
        }
    }
}

/// At the smallest window (640×480) the sea battle's result panel is whole on
/// screen: who won, why, Play again, Save and Home; the boards may scroll below it.
#[test]
fn the_sea_results_panel_is_whole_in_the_smallest_window() {
    let view = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::Vec2::new(640.0, 480.0));
    let dir = tempfile::tempdir().unwrap();
    let store = armada::store::Store::open(Some(dir.path())).unwrap();
    let mut harness = sized_harness(Armada::new(Some(store)).without_pauses(), view.size());
    press(&mut harness, "Easy");
    press(&mut harness, "Place automatically");
    press(&mut harness, "Start the game");
    until_my_move(&mut harness);
    press(&mut harness, "Resign");
    press(&mut harness, "Yes, resign");
    for _ in 0..10 {
        harness.step();
    }
    for label in [
        "You lose.",
        "You resigned.",
        "Play again",
        "Save the transcript",
    ] {
        let rect = harness
            .get_all_by_label_contains(label)
            .next()
            .unwrap()
            .rect();
        assert!(view.contains_rect(rect), "{label:?} at {rect:?}");
    }
    let home = harness.get_all_by_label("Home").last().unwrap().rect();
    assert!(view.contains_rect(home), "Home at {home:?}");
    if let Ok(shots) = std::env::var("ARMADA_SHOTS") {
        let image = harness.render().expect("a renderer");
        image
            .save(std::path::Path::new(&shots).join("results_640x480.png"))
            .unwrap();
    }
}

/// The labels of the home table's row that starts with the label `first`, left to
/// right.
fn table_row(harness: &Harness<'_, Armada>, first: &str) -> Vec<String> {
    use egui::accesskit::Role;
    let start = harness.get_by_role_and_label(Role::Label, first).rect();
    let mut row: Vec<(f32, String)> = harness
        .query_all_by_role(Role::Label)
        .filter(|n| (n.rect().center().y - start.center().y).abs() < 2.0)
        .filter(|n| n.rect().min.x >= start.min.x)
        // A label's text is its AccessKit value.
        .map(|n| {
            let text = n.accesskit_node().value().unwrap_or_default();
            (n.rect().min.x, text)
        })
        .collect();
    row.sort_by(|a, b| a.0.total_cmp(&b.0));
    row.into_iter().map(|(_, label)| label).collect()
}

/// Two games against the easy computer at one table, one played out by clicks and
/// one resigned: the results show the totals of the kind with each game counted once
/// (however often the screen is drawn), the home screen's table shows the same, and
/// a window opened again over the same data keeps them.
#[test]
fn totals_across_games_are_shown_counted_once_and_kept_across_windows() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    assert!(has(&harness, "No games counted yet."));
    start_against(&mut harness, "Easy");
    play_to_the_end_by_clicks(&mut harness);
    let won = matches!(
        harness.state().session().unwrap().table().settled(),
        Some(Verdict::Honest(ending)) if ending.winner == Some(harness.state().session().unwrap().seat())
    );
    let first = if won {
        "1 won, 0 lost, 0 drawn (100 %), streak 1, best 1"
    } else {
        "0 won, 1 lost, 0 drawn (0 %), streak 0, best 0"
    };
    assert!(has(
        &harness,
        &format!("Against the computer (Easy), Armada: {first}")
    ));
    click(&mut harness, "Play again");
    for _ in 0..10 {
        harness.step();
    }
    start_placed(&mut harness);
    click(&mut harness, "Resign");
    click(&mut harness, "Yes, resign");
    // Drawn again and again, the results count the game once.
    for _ in 0..30 {
        harness.step();
    }
    let (w, percent, best) = if won { (1, 50, 1) } else { (0, 0, 0) };
    let line = format!(
        "Against the computer (Easy), Armada: {w} won, {l} lost, 0 drawn ({percent} %), streak 0, best {best}",
        l = 2 - w
    );
    assert!(has(&harness, &line), "{line}");
    let row: Vec<String> = ["Easy", "Armada"]
        .into_iter()
        .map(String::from)
        .chain([w, 2 - w, 0].map(|n| n.to_string()))
        .chain([format!("{percent} %"), "0".into(), best.to_string()])
        .collect();
    click(&mut harness, "Home");
    assert_eq!(table_row(&harness, "Easy"), row);
    assert!(dir.path().join("totals.json").exists());
    // Closed and opened again over the same data: the same figures.
    drop(harness);
    let harness = window(dir.path());
    assert_eq!(table_row(&harness, "Easy"), row);
    // A damaged file costs the totals only, with a word saying so.
    drop(harness);
    std::fs::write(dir.path().join("totals.json"), b"{ not the totals").unwrap();
    let harness = window(dir.path());
    assert!(has(&harness, "The totals could not be read"));
    assert!(has(&harness, "No games counted yet."));
    assert!(has(&harness, "Against the computer (Easy): 2 games, score"));
    // A file that cannot be read nor moved aside is said, and never written over:
    // a game played now is not counted.
    drop(harness);
    std::fs::create_dir(dir.path().join("totals.json")).unwrap();
    let mut harness = window(dir.path());
    assert!(has(
        &harness,
        "could not be moved aside, so this window counts no games"
    ));
    start_against(&mut harness, "Easy");
    click(&mut harness, "Resign");
    click(&mut harness, "Yes, resign");
    until_my_move(&mut harness);
    assert!(has(&harness, "Game over"));
    assert!(!has(&harness, "Against the computer (Easy), Armada:"));
    assert!(!has(&harness, "This game is not counted"));
    assert!(dir.path().join("totals.json").is_dir());
}

/// Places the fleet automatically and starts, then waits for the player's move.
fn start_placed(harness: &mut Harness<'_, Armada>) {
    click(harness, "Place automatically");
    click(harness, "Start the game");
    until_my_move(harness);
}

/// Issue 18: who moves first against the computer is drawn by lot, and the window
/// says so — under the turn until the first action, and as the move log's first
/// line. New tables until both outcomes came up: one misses 64 tables with
/// probability 2^-64, so the test fails once in 2^63 runs.
#[test]
fn a_new_game_against_the_computer_says_who_won_the_lot() {
    const YOU: &str = "Drawn by lot: you move first.";
    const COMPUTER: &str = "Drawn by lot: the computer moves first.";
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    let (mut won, mut lost) = (false, false);
    for _ in 0..64 {
        if won && lost {
            break;
        }
        click(&mut harness, "Easy");
        click(&mut harness, "Place automatically");
        click(&mut harness, "Start the game");
        until_my_move(&mut harness);
        let session = harness.state().session().unwrap();
        let me = session.seat();
        let (line, not) = if session.table().history().is_empty() {
            // The person hosts and nothing is played until they act.
            assert_eq!(me, armada::rules::Seat::Host);
            assert!(has(&harness, YOU), "the battle screen tells the lot");
            assert!(click_unknown_enemy_cell(&mut harness));
            harness.run();
            won = true;
            (YOU, COMPUTER)
        } else {
            // The computer hosts and has acted first.
            assert_eq!(me, armada::rules::Seat::Guest);
            assert_ne!(session.table().history()[0].seat, me);
            lost = true;
            (COMPUTER, YOU)
        };
        // Once an action is played only the move log tells the lot (the log's
        // state carries over from the last table).
        if !has(&harness, "You: ") && !has(&harness, "Opponent: ") {
            click(&mut harness, "Moves");
        }
        assert_eq!(harness.query_all_by_label(line).count(), 1, "{line}");
        assert!(!has(&harness, not), "{not}");
        click(&mut harness, "Home");
    }
    assert!(won && lost, "both outcomes of the lot in 64 tables");
}

/// The lot's lines in the seed pages' words: «жереб»/«жребий», «партія»/«партия».
#[test]
fn the_lot_is_told_in_the_seed_pages_words() {
    for (lang, lot, game) in [(Lang::Uk, "жереб", "партії"), (Lang::Ru, "жреби", "партии")]
    {
        for id in ["lot-you", "lot-computer"] {
            let text = Text::new(lang).get(id);
            assert!(
                text.contains(lot) && text.contains(game),
                "{lang:?} {id} = {text:?}"
            );
        }
    }
}

/// Issue 18: a liar over the network sinks the window player's whole fleet while
/// answering by a fleet of five boats, and is caught when it reveals that fleet. The
/// results say the player won, and why, from the verdict — never "every ship sunk"
/// — and the liar's own table settles on the same verdict.
#[test]
fn a_liar_that_sinks_the_fleet_and_is_caught_at_the_reveal_loses_on_the_results() {
    use crate::caught::LiarPeer;
    use crate::liar::Cheat;
    use crate::support::{FLEET, cell, fleet};

    let dir = tempfile::tempdir().unwrap();
    let listen = "/ip4/127.0.0.1/tcp/0";
    let (mut harness, link) = hosting_window(dir.path(), listen);
    // A boat too many, at A10: every answer agrees with these decks, so only the
    // reveal shows the lie.
    let honest = fleet(Variant::Armada, FLEET);
    let mut decks = honest.decks();
    decks.insert(cell("A10"));
    let liar = LiarPeer::join(&link, listen, honest, Cheat::Decks(decks));
    until(&mut harness, "the placement", |h| {
        has(h, "Place your fleet")
    });
    // The liar never runs out of time; the player's shots are the test's, not the timer's.
    if harness.state().session().unwrap().timer_switch() {
        click(&mut harness, TIMER_SWITCH);
        until(&mut harness, "the timer off", |h| {
            !h.state().session().unwrap().timer_switch()
        });
    }
    click(&mut harness, "Place automatically");
    until(&mut harness, "the liar's Ready", |h| {
        has(h, "The opponent is ready.")
    });
    click(&mut harness, "Start the game");
    // The player fires only at the liar's water, so the liar sinks every ship first.
    let mut water = armada::rules::BoardSize::STANDARD
        .cells()
        .filter(|c| !decks.contains(*c));
    loop {
        until(&mut harness, "my move or the end", |h| {
            let session = h.state().session();
            let answered = session.is_some_and(|s| s.table().pending().is_none());
            (has(h, "Your move") && answered && !h.state().animating()) || has(h, "Game over")
        });
        if has(&harness, "Game over") {
            break;
        }
        let played = |h: &Harness<'_, Armada>| h.state().session().unwrap().table().history().len();
        let before = played(&harness);
        let target = format!("Enemy waters {}:", water.next().expect("water left"));
        harness.get_by_label_contains(&target).click();
        // The shot goes through the network thread: the screen has it a frame later.
        until(&mut harness, "the shot taken", |h| played(h) > before);
    }
    until(&mut harness, "the verdict", |h| {
        has(h, "Opponent's answers: A lie")
    });
    let session = harness.state().session().unwrap();
    let table = session.table();
    let ending = table.game().unwrap().ending().unwrap();
    assert_eq!(
        ending.winner,
        Some(armada::rules::Seat::Guest),
        "the liar sank the fleet"
    );
    let Some(Verdict::Lie(lie)) = table.settled().cloned() else {
        panic!("a proven lie, not {:?}", table.settled())
    };
    assert_eq!(lie.liar, armada::rules::Seat::Guest);
    assert!(
        lie.reason.contains("the revealed fleet is illegal"),
        "{}",
        lie.reason
    );
    assert!(
        has(&harness, "You win!"),
        "the headline follows the verdict"
    );
    assert!(has(
        &harness,
        "The fleet your opponent revealed at the end was a proven lie."
    ));
    assert!(!has(&harness, "You lose."));
    assert!(!has(&harness, "Every ship of the losing fleet was sunk."));
    assert!(proven(&harness, "Your"));
    // The liar holds the same frames and reaches the same verdict.
    assert_eq!(liar.finish().unwrap(), Some(Verdict::Lie(lie)));
    // For the docs: `ARMADA_SHOTS=dir` keeps this screen as `results_liar.png`.
    if let Ok(shots) = std::env::var("ARMADA_SHOTS") {
        harness.run();
        let image = harness.render().expect("a renderer");
        image
            .save(std::path::Path::new(&shots).join("results_liar.png"))
            .unwrap();
    }
}

/// Archimedes by clicks: pick up one of your ships (its green dots appear as cells
/// labelled "move here"), then click a dot; until the game is over.
fn play_archimedes_by_clicks(harness: &mut Harness<'_, Armada>) -> usize {
    for moves in 0..400 {
        assert!(
            step_until(harness, 2_000, |h| has(h, "Your move:")
                || has(h, "The game is over.")),
            "the computer never gave the move back"
        );
        if has(harness, "The game is over.") {
            return moves;
        }
        one_archimedes_move_by_clicks(harness);
    }
    panic!("a game of 400 moves");
}

#[test]
fn archimedes_is_played_by_clicks_against_each_level_and_counted_in_the_totals() {
    let dir = tempfile::tempdir().unwrap();
    for (level, name) in [
        ("Easy", "easy"),
        ("Medium", "medium"),
        ("Hard", "hard"),
        ("Insane", "insane"),
    ] {
        let mut harness = window(dir.path());
        click(&mut harness, "6×6");
        click(&mut harness, level);
        assert!(has(&harness, "You: 7 ships · Computer: 7 ships · Moves: 0"));
        // A ship picked up shows where it can go; the same click puts it down.
        let moves = play_archimedes_by_clicks(&mut harness);
        assert!(moves > 0, "{name}: the person moved");
        let result = ["You win!", "You lose.", "A draw."]
            .iter()
            .filter(|r| has(&harness, r))
            .count();
        assert_eq!(result, 1, "{name}: one result headline");
        assert!(has(&harness, "Ships lost — you:"), "{name}");
        assert!(
            has(&harness, &format!("{level}, 6×6:")),
            "{name}: the totals of this board and level"
        );
        // Counted once: a redraw does not count it again.
        harness.run();
        let totals = armada::store::Store::open(Some(dir.path()))
            .unwrap()
            .totals()
            .unwrap();
        let tally = totals.archimedes_tally(armada::store::ArchimedesKind {
            against: armada::store::ArchimedesAgainst::Computer(name.parse().unwrap()),
            side: 6,
        });
        assert_eq!(tally.played(), 1, "{name}");
    }
    // Home lists the four levels' totals on this board.
    let harness = window(dir.path());
    for level in ["Easy", "Medium", "Hard", "Insane"] {
        assert!(has(&harness, level));
    }
    assert_eq!(harness.query_all_by_label("Archimedes 6×6").count(), 4);
}

#[test]
fn archimedes_is_saved_after_every_move_and_continued_from_home() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "8×8");
    click(&mut harness, "Easy");
    assert!(has(&harness, "You: 12 ships · Computer: 12 ships"));
    let ship = harness
        .query_all_by_label_contains(": your ship")
        .filter_map(|n| n.accesskit_node().label())
        .find(|s| s.starts_with("D1"))
        .unwrap();
    click(&mut harness, &ship);
    assert!(has(&harness, "E2: move here"), "the green dots of D1");
    click(&mut harness, "E2: move here");
    assert!(step_until(&mut harness, 400, |h| has(h, "Moves: 2")));
    // A new window over the same data: home offers the game, and it is where it was.
    drop(harness);
    let mut harness = window(dir.path());
    click(&mut harness, "Continue the game of Archimedes");
    assert!(has(&harness, "Moves: 2"));
    assert!(has(&harness, "E2: your ship"));
    // For the docs: `ARMADA_SHOTS=dir` keeps the board with a ship's green dots.
    if let Ok(shots) = std::env::var("ARMADA_SHOTS") {
        click(&mut harness, "E2: your ship");
        let image = harness.render().expect("a renderer");
        image
            .save(std::path::Path::new(&shots).join("archimedes.png"))
            .unwrap();
        click(&mut harness, "E2: your ship");
    }
    // The keyboard: the cursor starts at A1; arrows to D2 (one of my ships), Enter
    // picks it up, right and up to its dot E3, Enter moves it there.
    for key in [
        egui::Key::ArrowRight,
        egui::Key::ArrowRight,
        egui::Key::ArrowRight,
        egui::Key::ArrowUp,
    ] {
        harness.key_press(key);
        harness.run();
    }
    harness.key_press(egui::Key::Enter);
    harness.run();
    assert!(
        has(&harness, "E3: move here"),
        "D2 picked up by the keyboard"
    );
    harness.key_press(egui::Key::ArrowRight);
    harness.key_press(egui::Key::ArrowUp);
    harness.run();
    harness.key_press(egui::Key::Enter);
    harness.run();
    assert!(
        step_until(&mut harness, 400, |h| has(h, "Moves: 4")),
        "the keyboard's move and the answer"
    );
    assert!(has(&harness, "E3: your ship") || has(&harness, "Sunk: E3"));
    // F1 shows this game's rules, not the sea battle's; Back returns to the board.
    harness.key_press(egui::Key::F1);
    harness.run();
    assert!(has(&harness, "How to play Archimedes"));
    assert!(!has(&harness, "How to play Armada"));
    click(&mut harness, "Back");
    assert!(has(&harness, "Moves: 4"));
    // The pause menu: rules, resign; the result says who resigned.
    click(&mut harness, "Menu");
    click(&mut harness, "How to play");
    assert!(has(&harness, "like a chess queen"));
    // Resign asks first: "No" plays on.
    click(&mut harness, "Resign");
    assert!(has(&harness, "Resign this game?"));
    click(&mut harness, "No, play on");
    assert!(!has(&harness, "You lose."));
    click(&mut harness, "Resign");
    click(&mut harness, "Yes, resign");
    assert!(has(&harness, "You lose."));
    assert!(has(&harness, "You resigned."));
}

#[test]
fn the_archimedes_results_are_whole_on_screen_at_both_sizes() {
    for size in [
        egui::Vec2::new(1100.0, 760.0),
        egui::Vec2::new(640.0, 480.0),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let store = armada::store::Store::open(Some(dir.path())).unwrap();
        let mut harness = sized_harness(Armada::new(Some(store)).without_pauses(), size);
        click(&mut harness, "10×10");
        click(&mut harness, "Easy");
        click(&mut harness, "Menu");
        click(&mut harness, "Resign");
        click(&mut harness, "Yes, resign");
        assert!(has(&harness, "You lose."), "{size:?}");
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, size);
        for label in ["You lose.", "You resigned.", "New game", "Home"] {
            for node in harness.get_all_by_label(label) {
                assert!(
                    window.contains_rect(node.rect()),
                    "{label} at {size:?}: {:?}",
                    node.rect()
                );
            }
        }
        // For the docs: `ARMADA_SHOTS=dir` keeps the result at each size.
        if let Ok(shots) = std::env::var("ARMADA_SHOTS") {
            let image = harness.render().expect("a renderer");
            let name = format!("archimedes_results_{}x{}.png", size.x, size.y);
            image.save(std::path::Path::new(&shots).join(name)).unwrap();
        }
    }
}

#[test]
fn archimedes_speaks_the_russian_pages_words() {
    let dir = tempfile::tempdir().unwrap();
    let store = armada::store::Store::open(Some(dir.path())).unwrap();
    std::fs::write(dir.path().join("window.json"), br#"{"lang":"Ru"}"#).unwrap();
    let mut harness = harness(Armada::new(Some(store)).without_pauses());
    click(&mut harness, "6×6");
    for level in ["Лёгкий", "Средний", "Сложный", "Безумный"] {
        assert!(has(&harness, level), "{level}");
    }
    click(&mut harness, "Безумный");
    assert!(has(&harness, "Вы: 7 кораблей · Компьютер: 7 кораблей"));
    click(&mut harness, "Меню");
    for word in ["Далее", "Новая игра", "Как играть"] {
        assert!(has(&harness, word), "{word}");
    }
}

/// The moves played so far at the Archimedes table on screen, from its score line.
fn arch_moves(harness: &Harness<'_, Armada>) -> Option<u32> {
    harness
        .query_all_by_label_contains("Moves: ")
        .filter_map(|n| n.accesskit_node().value())
        .find_map(|l| l.rsplit("Moves: ").next()?.trim().parse().ok())
}

/// The person at `harness` moves one of their ships to a green dot, by clicks.
fn one_archimedes_move_by_clicks(harness: &mut Harness<'_, Armada>) {
    let ships: Vec<String> = harness
        .query_all_by_label_contains(": your ship")
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    for ship in ships {
        click(harness, &ship);
        let dot = harness
            .query_all_by_label_contains(": move here")
            .find_map(|n| n.accesskit_node().label());
        if let Some(dot) = dot {
            click(harness, &dot);
            return;
        }
        // No move for this ship: put it down again.
        click(harness, &ship);
    }
    panic!("none of my ships could move, yet it is my move");
}

#[test]
fn two_windows_play_archimedes_by_clicks_over_loopback_and_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = friend_window(&dir.path().join("host"));
    let mut guest = friend_window(&dir.path().join("guest"));
    open_archimedes_with_a_friend(&mut host, &mut guest);
    assert!(has(&host, "Against your friend · board 6×6"));
    assert!(has(&host, "Connected directly"), "loopback is direct");
    let over = |h: &Harness<'_, Armada>| has(h, "The game is over.");
    let mut moves = 0;
    while !(over(&host) && over(&guest)) {
        both_until(&mut host, &mut guest, "a move or the end", |h, g| {
            (over(h) && over(g)) || has(h, "Your move:") || has(g, "Your move:")
        });
        if over(&host) && over(&guest) {
            break;
        }
        let (me, other) = if has(&host, "Your move:") {
            (&mut host, &mut guest)
        } else {
            (&mut guest, &mut host)
        };
        assert!(has(other, "Your friend's move…"), "the other side waits");
        let before = arch_moves(me).unwrap();
        one_archimedes_move_by_clicks(me);
        both_until(me, other, "the move on both boards", |m, o| {
            arch_moves(m) > Some(before) && arch_moves(o) == arch_moves(m)
        });
        moves += 1;
        assert!(moves < 400, "the game does not end");
    }
    assert!(moves > 0, "the game was played by clicks");
    let results = |h: &Harness<'_, Armada>| {
        ["You win!", "You lose.", "A draw."]
            .into_iter()
            .filter(|r| has(h, r))
            .collect::<Vec<_>>()
    };
    let (h, g) = (results(&host), results(&guest));
    assert_eq!((h.len(), g.len()), (1, 1), "one headline each: {h:?} {g:?}");
    assert!(
        matches!(
            (h[0], g[0]),
            ("You win!", "You lose.") | ("You lose.", "You win!") | ("A draw.", "A draw.")
        ),
        "the two windows agree: {h:?} {g:?}"
    );
    assert!(has(&host, "Ships lost — you:") && has(&host, "your friend:"));
    // Play again: both ask, and a new game opens on both boards.
    click(&mut host, "Play again");
    both_until(&mut host, &mut guest, "the friend's wish", |_, g| {
        has(g, "Your friend wants another game")
    });
    click(&mut guest, "Play again");
    // The fresh board shows at once; the game is under way once both nonces of its
    // id are in, and only then is there a move to wait for or a game to resign.
    let under_way = |h: &Harness<'_, Armada>| {
        has(h, "Moves: 0") && (has(h, "Your move:") || has(h, "Your friend's move…"))
    };
    both_until(&mut host, &mut guest, "the second game", |h, g| {
        under_way(h) && under_way(g)
    });
    assert!(!has(&host, "The game is starting…") && !has(&guest, "The game is starting…"));
    // The guest resigns from its menu; both see it, and the host wins.
    click(&mut guest, "Menu");
    click(&mut guest, "Resign");
    click(&mut guest, "Yes, resign");
    both_until(&mut host, &mut guest, "the resignation settled", |h, g| {
        has(h, "You win!") && has(g, "You lose.")
    });
    assert!(has(&guest, "You resigned."));
    assert!(
        has(&host, "Your opponent resigned."),
        "the host is told why it won: {:?} / {:?}",
        labels(&host),
        labels(&guest)
    );
    // The host goes home: the guest is told its friend left.
    click(&mut host, "Home");
    until(&mut guest, "the friend gone", |g| {
        has(g, "Your friend left the table.")
    });
    // Each side's transcript is the same honest record of two games.
    for side in ["host", "guest"] {
        let report = saved_report(&dir.path().join(side));
        assert_eq!(
            report.outcome,
            armada::fair::verify::Outcome::Honest,
            "{side}"
        );
        assert_eq!(report.archimedes.len(), 2, "{side}: two games");
        assert!(report.archimedes.iter().all(|g| g.verdict.is_some()));
        // Both games count in the totals, under "A friend" on this board, once each.
        let totals = armada::store::Store::open(Some(&dir.path().join(side)))
            .unwrap()
            .totals()
            .unwrap();
        let tally = totals.archimedes_tally(armada::store::ArchimedesKind {
            against: armada::store::ArchimedesAgainst::Friend,
            side: 6,
        });
        assert_eq!(tally.played(), 2, "{side}: {tally:?}");
        let resigned = if side == "host" {
            tally.won
        } else {
            tally.lost
        };
        assert!(resigned >= 1, "{side}: the resigned game counts: {tally:?}");
    }
}

/// The host's window opens an Archimedes table on 6×6 (chosen on home), and the
/// guest's joins it by the pasted invite, not told the game: both show the board.
fn open_archimedes_with_a_friend(
    host: &mut Harness<'static, Armada>,
    guest: &mut Harness<'static, Armada>,
) {
    click(host, "6×6");
    click(host, "Open a table");
    until(host, "the invite", |h| h.state().invite().is_some());
    let link = host.state().invite().unwrap().to_owned();
    let field = "Your friend's code (4821-harbor-anchor) or invite";
    guest.get_by_label(field).focus();
    guest.run();
    guest.get_by_label(field).type_text(&link);
    guest.run();
    click(guest, "Join");
    both_until(host, guest, "both boards", |h, g| {
        has(h, "You: 7 ships · Friend: 7 ships · Moves: 0")
            && has(g, "You: 7 ships · Friend: 7 ships · Moves: 0")
    });
}

#[test]
fn an_archimedes_table_with_a_friend_resumes_after_the_window_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = in_process_window(&dir.path().join("host"));
    let mut guest = in_process_window(&dir.path().join("guest"));
    open_archimedes_with_a_friend(&mut host, &mut guest);
    // One move, seen on both boards.
    both_until(&mut host, &mut guest, "a move due", |h, g| {
        has(h, "Your move:") || has(g, "Your move:")
    });
    let guest_first = has(&guest, "Your move:");
    let (me, other) = if guest_first {
        (&mut guest, &mut host)
    } else {
        (&mut host, &mut guest)
    };
    one_archimedes_move_by_clicks(me);
    both_until(me, other, "the move on both boards", |m, o| {
        arch_moves(m) == Some(1) && arch_moves(o) == Some(1)
    });
    // The guest's window closes mid-game: no goodbye, the table stays open.
    drop(guest);
    until(&mut host, "the lost link", |h| {
        has(h, "Connection lost — reconnecting…")
    });
    let mut guest = in_process_window(&dir.path().join("guest"));
    assert!(has(&guest, "Resume the game with your friend"));
    click(&mut guest, "Resume the game with your friend");
    both_until(&mut host, &mut guest, "the table again", |h, g| {
        arch_moves(g) == Some(1) && has(h, "Connected directly") && has(g, "Connected directly")
    });
    assert!(has(&guest, "Against your friend · board 6×6"));
    // The game goes on where it was: the side to move moves, the other sees it.
    both_until(&mut host, &mut guest, "the next move due", |h, g| {
        has(h, "Your move:") || has(g, "Your move:")
    });
    let (me, other) = if has(&guest, "Your move:") {
        (&mut guest, &mut host)
    } else {
        (&mut host, &mut guest)
    };
    one_archimedes_move_by_clicks(me);
    both_until(me, other, "the second move on both boards", |m, o| {
        arch_moves(m) == Some(2) && arch_moves(o) == Some(2)
    });
}

/// Regression: Home mid-game left at once with a bare leave; both windows then waited
/// for the leaver's reveal for good, the host still showed "Connected directly" and
/// an enabled Play again, and both home screens offered to resume the table.
#[test]
fn home_mid_game_asks_first_then_resigns_and_both_sides_settle_and_go_home() {
    let dir = tempfile::tempdir().unwrap();
    let (host_dir, guest_dir) = (dir.path().join("host"), dir.path().join("guest"));
    let mut host = in_process_window(&host_dir);
    let mut guest = in_process_window(&guest_dir);
    let link = open_table(&mut host);
    join_by_paste(&mut host, &mut guest, &link);
    start_friend_game(&mut host, &mut guest, false);
    // Home asks first; "No" plays on.
    click(&mut guest, "Home");
    assert!(has(
        &guest,
        "Leave the table? The game under way counts as resigned; your friend is told."
    ));
    // For the docs: `ARMADA_SHOTS=dir` keeps the question and the host's results.
    let shot = |harness: &mut Harness<'_, Armada>, name: &str| {
        if let Ok(shots) = std::env::var("ARMADA_SHOTS") {
            harness.run();
            let image = harness.render().expect("a renderer");
            image.save(std::path::Path::new(&shots).join(name)).unwrap();
        }
    };
    shot(&mut guest, "leave_confirm.png");
    click(&mut guest, "No, play on");
    assert!(has(&guest, "Offer a draw"), "still at the table");
    click(&mut guest, "Home");
    click(&mut guest, "Yes, leave");
    assert!(has(&guest, "Open a table"), "the guest is home at once");
    // The guest's side resigns, reveals and leaves in the background; the host sees
    // the game won, its verdict, and that its friend left.
    until(&mut host, "the verdict and the leave", |h| {
        proven(h, "Opponent\'s") && has(h, "Your friend left the table.")
    });
    let again = host.get_by_label("Play again");
    assert!(
        again.accesskit_node().is_disabled(),
        "nobody to play again with"
    );
    shot(&mut host, "friend_left.png");
    let host_table = host.state().session().unwrap().table().clone();
    assert!(matches!(host_table.settled(), Some(Verdict::Honest(_))));
    assert!(host_table.left(armada::rules::Seat::Guest));
    // No confirmation: nothing is under way any more.
    click(&mut host, "Home");
    assert!(has(&host, "Open a table"));
    for data in [&host_dir, &guest_dir] {
        // The guest's network side may still be parting: its record settles within
        // moments, and then verifies whole.
        let give_up = std::time::Instant::now() + std::time::Duration::from_mins(1);
        let report = loop {
            let report = saved_report(data);
            if report.left[1] || std::time::Instant::now() > give_up {
                break report;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        assert_eq!(
            report.outcome,
            armada::fair::verify::Outcome::Honest,
            "{}",
            data.display()
        );
        assert_eq!(report.left, [false, true]);
        let window = in_process_window(data);
        assert!(
            !has(&window, "Resume the game with your friend"),
            "a table its guest left is not offered for resuming"
        );
    }
}

/// Regression: a friend who could not go on (its save broke) while the host placed
/// its fleet went unsaid until the battle, and Start stayed offered for a table that
/// could never start. The placement screen now says so, and Start is off.
#[test]
fn a_friend_who_cannot_go_on_during_placement_is_said_and_start_is_off() {
    use armada_proto::{Invite, Wire, decode_wire, encode_wire};
    use futures::{SinkExt as _, StreamExt as _};
    use tokio_util::bytes::Bytes;

    use crate::liar::{Cheat, Liar};
    use crate::support::{FLEET, fleet};

    let dir = tempfile::tempdir().unwrap();
    let listen = "/ip4/127.0.0.1/tcp/0";
    let (mut harness, link) = hosting_window(dir.path(), listen);
    let invite = Invite::parse(&link).unwrap();
    // The friend plays the protocol (its fleet placed at once) until told to say
    // that it cannot go on.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (say_gone, told) = tokio::sync::oneshot::channel::<()>();
    let friend = runtime.spawn(async move {
        let identity = armada::fair::sign::Identity::generate();
        let fleet = fleet(Variant::Armada, FLEET);
        let mut friend = Liar::speaking_as(identity.clone(), invite.secret, fleet, Cheat::None);
        let table = friend.table.id();
        let (_node, mut framed) =
            crate::caught::seated(&invite, listen.parse().unwrap(), &identity, table)
                .await
                .unwrap();
        let mut told = told;
        loop {
            while let Some(frame) = friend.outbox.pop_front() {
                let bytes = Bytes::from(encode_wire(&Wire::Frame(frame)));
                framed.send(bytes).await.unwrap();
            }
            tokio::select! {
                Ok(()) = &mut told => {
                    let gone = Wire::Gone { table, reason: "its saved table is damaged".into() };
                    framed.send(Bytes::from(encode_wire(&gone))).await.unwrap();
                    // Heard once the host closes the stream.
                    while let Some(Ok(_)) = framed.next().await {}
                    return;
                }
                next = framed.next() => match next.map(|n| n.map(|b| decode_wire(&b))) {
                    Some(Ok(Ok(Wire::Frame(frame)))) => {
                        friend.receive(&frame);
                    }
                    Some(Ok(_)) => {}
                    _ => return,
                },
            }
        }
    });
    until(&mut harness, "the placement", |h| {
        has(h, "Place your fleet")
    });
    click(&mut harness, "Place automatically");
    until(&mut harness, "the friend's Ready", |h| {
        has(h, "The opponent is ready.")
    });
    say_gone.send(()).unwrap();
    until(&mut harness, "the friend's word", |h| {
        has(h, "Your friend cannot go on at this table")
    });
    assert!(
        harness
            .get_by_label("Start the game")
            .accesskit_node()
            .is_disabled()
    );
    assert!(
        has(&harness, "Place your fleet"),
        "the fleet stays on screen"
    );
    runtime.block_on(friend).unwrap();
}
