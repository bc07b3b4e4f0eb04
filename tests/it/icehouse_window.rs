//! Icehouse Armada in the window, driven by the pointer and keys through
//! `egui_kittest`: the fleet laid by hand (refused places named) and automatically,
//! then whole games against each level by clicks — ships picked on the table, steps
//! laid after the ghost, broadsides at lit targets, turns ended — asserting what the
//! screen says.

use armada::icehouse::{Game, Point, Pose, Side, Triangle, nearest_step};
use armada::ui::Armada;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

use super::window::{both_until, click, has, in_process_window, saved_report, step_until, window};

/// Steps until a condition holds, whether it did: the window alone against the
/// computer, or with the friend's window stepped beside it.
type Settle<'a> =
    dyn FnMut(&mut Harness<'static, Armada>, &dyn Fn(&Harness<'_, Armada>) -> bool) -> bool + 'a;

/// Against the computer: what the person did shows at once, or after a few frames.
fn alone(
    harness: &mut Harness<'static, Armada>,
    done: &dyn Fn(&Harness<'_, Armada>) -> bool,
) -> bool {
    step_until(harness, 8, done)
}

/// The vector from `b` to `a`.
const fn sub(a: Point, b: Point) -> Point {
    Point::new(a.x - b.x, a.y - b.y)
}

/// The middle of a triangle, a point inside it.
fn centre(t: &Triangle) -> Point {
    let [a, b, c] = t.0;
    Point::new((a.x + b.x + c.x) / 3, (a.y + b.y + c.y) / 3)
}

fn screen(harness: &Harness<'_, Armada>, p: Point) -> egui::Pos2 {
    harness
        .state()
        .icehouse_screen_pos(p)
        .expect("the Icehouse table is on screen")
}

/// A click of the primary button at a table point.
fn click_at(harness: &mut Harness<'_, Armada>, p: Point) {
    let pos = screen(harness, p);
    harness.hover_at(pos);
    harness.run();
    harness.drag_at(pos);
    harness.drop_at(pos);
    harness.run();
}

fn hover(harness: &mut Harness<'_, Armada>, p: Point) {
    let pos = screen(harness, p);
    harness.hover_at(pos);
    harness.run();
}

/// With `ARMADA_SHOTS=dir`, the window as it stands saved as `dir/name` (the first
/// time only: a whole game passes each moment many times).
fn shot(harness: &mut Harness<'_, Armada>, name: &str) {
    if let Ok(dir) = std::env::var("ARMADA_SHOTS") {
        let path = std::path::Path::new(&dir).join(name);
        if !path.exists() {
            harness.render().unwrap().save(path).unwrap();
        }
    }
}

fn game(harness: &Harness<'_, Armada>) -> Game {
    harness
        .state()
        .icehouse_game()
        .expect("a game on the table")
        .clone()
}

fn me(harness: &Harness<'_, Armada>) -> Side {
    harness.state().icehouse_side().unwrap()
}

/// "Actions left: N" as the panel says it.
fn actions_left(harness: &Harness<'_, Armada>) -> Option<u8> {
    harness
        .query_all_by_label_contains("Actions left: ")
        .find_map(|n| {
            n.accesskit_node()
                .value()?
                .rsplit(": ")
                .next()?
                .parse()
                .ok()
        })
}

fn over(harness: &Harness<'_, Armada>) -> bool {
    ["You win!", "You lose.", "A draw."]
        .iter()
        .any(|r| has(harness, r))
}

/// Opens Icehouse Armada against `level` from home and lays the fleet: the first
/// ship by hand, a refused place in the middle of the table named, the rest
/// automatically; then Ready.
fn open_and_place(harness: &mut Harness<'_, Armada>, level: &str) {
    click(harness, "Icehouse Armada");
    click(harness, level);
    assert!(has(harness, "Lay your fleet"));
    assert!(has(harness, "hidden until yours is"));
    let side = me(harness);
    // The first ship is in hand: the middle of the table is no one's home.
    click_at(harness, Point::new(450_000, 300_000));
    assert!(
        has(harness, "must lie wholly inside your home strip"),
        "a place outside the home strip is refused with its reason"
    );
    let home_y = match side {
        Side::South => 80_000,
        Side::North => 520_000,
    };
    click_at(harness, Point::new(200_000, home_y));
    assert!(has(harness, "✔ "), "the first ship is laid");
    // The next ship comes to hand; laid on the same place it would touch the first.
    // (At the heavy squadron, the default: its ships are L1 to L4.)
    click_at(harness, Point::new(200_000, home_y));
    assert!(has(harness, "would touch"), "a touching place is refused");
    // The ship in hand half over the first: drawn red where it may not lie.
    hover(harness, Point::new(215_000, home_y + 20_000));
    shot(harness, "icehouse_placement.png");
    // Escape puts the ship in hand back; the first is dragged elsewhere, and the
    // second then lies where the first was.
    harness.key_press(egui::Key::Escape);
    harness.run();
    let (from, to) = (
        screen(harness, Point::new(200_000, home_y)),
        screen(harness, Point::new(500_000, home_y)),
    );
    harness.hover_at(from);
    harness.run();
    harness.drag_at(from);
    harness.run();
    for k in 1..=4 {
        harness.hover_at(from + (to - from) * (k as f32 / 4.0));
        harness.run();
    }
    harness.drop_at(to);
    harness.run();
    click(harness, "L2 · large");
    click_at(harness, Point::new(200_000, home_y));
    assert_eq!(
        harness.query_all_by_label_contains("✔ ").count(),
        2,
        "the first ship was dragged away and the second laid in its place"
    );
    click(harness, "Place the rest automatically");
    click(harness, "Ready — to battle");
    assert!(
        has(harness, "Both fleets are laid"),
        "the computer's fleet is shown once both are laid"
    );
}

/// What the person did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Did {
    Fired,
    Moved,
    Ended,
}

/// One action of the person by clicks: a broadside at a lit target if any ship has
/// one, else a move toward the nearest enemy, else the end of the turn; each
/// checked taken (the actions left counted down, or the turn passed).
fn one_action(harness: &mut Harness<'static, Armada>, settle: &mut Settle<'_>) -> Did {
    let g = game(harness);
    let side = me(harness);
    let before = actions_left(harness).expect("the actions left are shown");
    assert_eq!(before, g.actions_left());
    let turn = g.turn();
    let taken = |h: &Harness<'_, Armada>| {
        let g = game(h);
        g.turn() != turn || g.actions_left() < before || g.ending().is_some() || over(h)
    };
    // Fire: pick a ship with shots left, press F, point at each enemy.
    for (i, ship) in g.ships(side).iter().enumerate() {
        if !ship.afloat || g.shots_fired(i as u8) >= ship.size().pips() {
            continue;
        }
        click_at(harness, centre(&ship.footprint()));
        harness.key_press(egui::Key::F);
        harness.run();
        for enemy in g.ships(side.other()).iter().filter(|e| e.afloat) {
            let at = centre(&enemy.footprint());
            hover(harness, at);
            let name = enemy.name.to_string();
            let lit = harness
                .query_all_by_label_contains("In the line of fire: ")
                .filter_map(|n| n.accesskit_node().value())
                .any(|l| {
                    l.split(": ")
                        .nth(1)
                        .is_some_and(|s| s.split(", ").any(|n| n == name))
                });
            // The pointer leaving the table for End turn finds it where it was.
            let end_turn = |h: &Harness<'_, Armada>| h.get_by_label("End turn (Space)").rect();
            let over_table = end_turn(harness);
            harness.hover_at(over_table.center());
            harness.run();
            assert_eq!(end_turn(harness), over_table, "End turn moved");
            hover(harness, at);
            if lit {
                shot(harness, "icehouse_fire.png");
                click_at(harness, at);
                assert!(settle(harness, &taken), "a click on a lit target fires");
                if has(harness, &format!("sank {name}")) {
                    shot(harness, "icehouse_sinking.png");
                }
                assert!(taken(harness), "a click on a lit target fires");
                assert!(
                    has(harness, &format!("hit {name}")) || has(harness, &format!("sank {name}")),
                    "the news names the hit"
                );
                return Did::Fired;
            }
        }
        harness.key_press(egui::Key::Escape);
        harness.run();
    }
    // Move: a ship that has not moved, toward the nearest enemy.
    for (i, ship) in g.ships(side).iter().enumerate() {
        if !ship.afloat || g.has_moved(i as u8) {
            continue;
        }
        let target = g
            .ships(side.other())
            .iter()
            .filter(|e| e.afloat)
            .min_by_key(|e| sub(e.pose.bow, ship.pose.bow).len2())
            .map(|e| e.pose.bow);
        let Some(target) = target else { break };
        let angle =
            ((target.y - ship.pose.bow.y) as f64).atan2((target.x - ship.pose.bow.x) as f64);
        let Ok((next, _)) = nearest_step(&g, i as u8, ship.pose, angle) else {
            continue;
        };
        click_at(harness, centre(&ship.footprint()));
        // The pointer on the legal step's bow (always on the table): the ghost
        // pivots toward it.
        let far = next.bow;
        hover(harness, far);
        shot(harness, "icehouse_ghost.png");
        click_at(harness, far);
        let refused = has(harness, "Step ");
        // A step laid waits for Enter; a large ship's one step sails at once.
        let laid = has(harness, "Sail (");
        if laid {
            harness.key_press(egui::Key::Enter);
            harness.run();
        }
        let sent = laid || ship.size() == armada::icehouse::Size::Large;
        if !refused && sent && settle(harness, &taken) {
            let moved = game(harness);
            if moved.ending().is_none() && moved.turn() == turn {
                assert!(moved.has_moved(i as u8));
                assert_ne!(moved.ships(side)[i].pose, ship.pose, "the ship sailed");
            }
            return Did::Moved;
        }
        harness.key_press(egui::Key::Escape);
        harness.run();
    }
    click(harness, "End turn (Space)");
    assert!(settle(harness, &taken), "End turn passes the turn");
    Did::Ended
}

/// Plays the person's turns by clicks until the game is over; the person's actions.
fn play_to_the_end(harness: &mut Harness<'static, Armada>) -> Vec<Did> {
    let mut actions = Vec::new();
    for _ in 0..2_000 {
        assert!(
            step_until(harness, 400, |h| over(h) || has(h, "Your turn")),
            "the computer never gave the turn back"
        );
        if over(harness) {
            return actions;
        }
        actions.push(one_action(harness, &mut alone));
    }
    panic!("a game of 2,000 actions");
}

#[test]
fn icehouse_is_placed_and_played_by_clicks_against_each_level() {
    let mut all = Vec::new();
    let mut sides = Vec::new();
    for level in ["Easy", "Medium", "Hard"] {
        let dir = tempfile::tempdir().unwrap();
        let mut harness = window(dir.path());
        open_and_place(&mut harness, level);
        let actions = play_to_the_end(&mut harness);
        let count = |did| actions.iter().filter(|&&d| d == did).count();
        let ending = harness.state().icehouse_game().and_then(Game::ending);
        eprintln!(
            "{level}: fired {}, moved {}, ended {} turns early; {ending:?}",
            count(Did::Fired),
            count(Did::Moved),
            count(Did::Ended)
        );
        all.extend(actions);
        assert!(has(&harness, "Ships lost — you:"), "{level}: the results");
        harness.run();
        assert!(
            has(
                &harness,
                &format!("{level}, Icehouse Armada, heavy (4 large): ")
            ),
            "{level}: the totals of this level and squadron on the results"
        );
        let totals = armada::store::Store::open(Some(dir.path()))
            .unwrap()
            .totals()
            .unwrap();
        let kind = armada::store::IcehouseKind {
            against: armada::store::IcehouseAgainst::Computer(
                level.to_lowercase().parse().unwrap(),
            ),
            heavy: true,
        };
        assert_eq!(
            totals.icehouse_tally(kind).played(),
            1,
            "{level}: counted once"
        );
        shot(&mut harness, "icehouse_results.png");
        let saved = armada::store::Store::open(Some(dir.path()))
            .unwrap()
            .icehouse()
            .unwrap()
            .unwrap();
        assert_eq!(
            saved.game().unwrap().as_ref(),
            harness.state().icehouse_game(),
            "{level}: the game on screen is the one saved"
        );
        // Which side each of the person's broadsides came from, by replaying the save.
        let mut replay = armada::icehouse::Game::new(
            saved.goal,
            saved.fleets,
            [&saved.placements[0], &saved.placements[1]],
        )
        .unwrap();
        for action in &saved.actions {
            if let armada::icehouse::Action::Fire(shot) = action
                && replay.to_move() == saved.person
            {
                sides.push(shot.side);
            }
            replay.play(*action).unwrap();
        }
    }
    for did in [Did::Fired, Did::Moved] {
        assert!(
            all.contains(&did),
            "{did:?}: every kind of action was played by clicks"
        );
    }
    // The person fired broadsides from both sides of their ships.
    assert!(
        sides.contains(&armada::icehouse::Broadside::Port),
        "{sides:?}"
    );
    assert!(
        sides.contains(&armada::icehouse::Broadside::Starboard),
        "{sides:?}"
    );
}

/// A ghost pivoting too sharply is refused with its reason, and the refused step is
/// not laid.
#[test]
fn a_refused_step_names_its_reason_and_a_click_on_an_unlit_target_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    open_and_place(&mut harness, "Easy");
    assert!(step_until(&mut harness, 400, |h| has(h, "Your turn")));
    shot(&mut harness, "icehouse_turn.png");
    let g = game(&harness);
    let side = me(&harness);
    let (i, ship) = g
        .ships(side)
        .iter()
        .enumerate()
        .find(|(_, s)| s.afloat)
        .unwrap();
    click_at(&mut harness, centre(&ship.footprint()));
    // Straight back over its own stern: the step would overlap its last place.
    let back = sub(ship.pose.stern, sub(ship.pose.bow, ship.pose.stern));
    click_at(&mut harness, back);
    assert!(
        has(&harness, "turns too sharply"),
        "a reversing step is refused with its reason"
    );
    assert_eq!(game(&harness), g, "nothing was played");
    assert_eq!(actions_left(&harness), Some(3));
    let _: Pose = g.ships(side)[i].pose;
    // A target far out of reach is not lit; a click on it says why.
    harness.key_press(egui::Key::F);
    harness.run();
    let far = g
        .ships(side.other())
        .iter()
        .max_by_key(|e| sub(e.pose.bow, ship.pose.bow).len2())
        .unwrap();
    hover(&mut harness, centre(&far.footprint()));
    assert!(has(&harness, "No target has a clear line from here"));
    click_at(&mut harness, centre(&far.footprint()));
    assert!(has(&harness, &format!("{} is not in the shadow", far.name)));
    assert_eq!(game(&harness), g);
}

/// The host's window opens an Icehouse table from home, the guest's joins by the
/// pasted invite and moves first, and both lay their fleets: the host's sealed
/// while the guest's is not laid, nothing shown until both are.
fn seat_friends(host: &mut Harness<'static, Armada>, guest: &mut Harness<'static, Armada>) {
    open_and_join(host, guest, &[]);
    choose_first_mover(host, guest, "I move first");
    assert!(has(guest, "You are south and move first."));
    assert!(has(
        host,
        "You are north; your friend moves first. The table is turned so that your side is at the bottom."
    ));
    lay_both(host, guest);
}

/// The host's window opens an Icehouse table from home with the setup `choices`
/// (labels clicked on the home card), the guest's joins by the pasted invite and is
/// asked who moves first.
fn open_and_join(
    host: &mut Harness<'static, Armada>,
    guest: &mut Harness<'static, Armada>,
    choices: &[&str],
) {
    click(host, "Icehouse Armada");
    for choice in choices {
        click(host, choice);
    }
    click(host, "Open a table");
    super::window::until(host, "the invite", |h| h.state().invite().is_some());
    let link = host.state().invite().unwrap().to_owned();
    let field = "Your friend's code (4821-harbor-anchor) or invite";
    guest.get_by_label(field).focus();
    guest.run();
    guest.get_by_label(field).type_text(&link);
    guest.run();
    click(guest, "Join");
    both_until(host, guest, "the choice of the first mover", |h, g| {
        has(h, "Your friend is choosing who moves first") && has(g, "You choose who moves first")
    });
}

/// The guest's choice of the first mover, clicked; both windows then lay fleets.
fn choose_first_mover(
    host: &mut Harness<'static, Armada>,
    guest: &mut Harness<'static, Armada>,
    label: &str,
) {
    click(guest, label);
    both_until(host, guest, "both laying", |h, g| {
        has(h, "Lay your fleet") && has(g, "Lay your fleet")
    });
}

/// Both fleets laid automatically, the host's sealed first: nothing is shown until
/// both are laid, then both windows show the same table.
fn lay_both(host: &mut Harness<'static, Armada>, guest: &mut Harness<'static, Armada>) {
    for side in [&mut *host, &mut *guest] {
        click(side, "Place the rest automatically");
    }
    click(host, "Ready — to battle");
    both_until(host, guest, "the host's fleet sealed", |h, _| {
        has(h, "waiting for your friend's fleet")
    });
    assert!(
        guest.state().icehouse_game().is_none(),
        "nothing is shown before both fleets are laid"
    );
    click(guest, "Ready — to battle");
    both_until(host, guest, "the battle", |h, g| {
        has(h, "Both fleets are laid") && has(g, "Both fleets are laid")
    });
    assert_eq!(
        host.state().icehouse_game(),
        guest.state().icehouse_game(),
        "both windows show the same table"
    );
}

/// One action by clicks at `me`, with the friend's window `other` stepped beside it
/// until the action shows.
fn friend_action(me: &mut Harness<'static, Armada>, other: &mut Harness<'static, Armada>) -> Did {
    let mut settle = |me: &mut Harness<'static, Armada>,
                      done: &dyn Fn(&Harness<'_, Armada>) -> bool| {
        // A guard against a hang, not a measure: the network side runs on real time.
        let give_up = std::time::Instant::now() + std::time::Duration::from_mins(2);
        while std::time::Instant::now() < give_up {
            if done(me) {
                return true;
            }
            me.state_mut()
                .wait_for_network(std::time::Duration::from_millis(10));
            other
                .state_mut()
                .wait_for_network(std::time::Duration::from_millis(10));
            me.step();
            other.step();
        }
        done(me)
    };
    one_action(me, &mut settle)
}

/// A whole Icehouse table of two windows in one process: the host opens it from
/// home, the guest joins by the pasted invite and chooses who moves first, both lay
/// their fleets (sealed before either is shown), the battle is played by clicks on
/// both sides, both windows agree on the result, and both records verify honest.
#[test]
fn two_windows_play_a_whole_icehouse_table_by_clicks() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = in_process_window(&dir.path().join("host"));
    let mut guest = in_process_window(&dir.path().join("guest"));
    seat_friends(&mut host, &mut guest);
    let actions = play_friends_to_the_end(&mut host, &mut guest);
    let ending = host.state().icehouse_game().and_then(Game::ending);
    eprintln!("friends: {} actions by clicks; {ending:?}", actions.len());
    assert!(actions.contains(&Did::Fired) && actions.contains(&Did::Moved));
    assert!(has(&host, "your friend:"));
    shot(&mut host, "icehouse_friend_results.png");
    both_honest_and_counted(dir.path());
}

/// Both windows' records verify honest, and each counted the one game once.
fn both_honest_and_counted(dir: &std::path::Path) {
    for side in ["host", "guest"] {
        let report = saved_report(&dir.join(side));
        assert_eq!(
            report.outcome,
            armada::fair::verify::Outcome::Honest,
            "{side}"
        );
        assert_eq!(report.icehouse.len(), 1, "{side}: one game");
        let totals = armada::store::Store::open(Some(&dir.join(side)))
            .unwrap()
            .totals()
            .unwrap();
        let played: u32 = totals.icehouse_kinds().map(|(_, t)| t.played()).sum();
        assert_eq!(played, 1, "{side}: the friend's game counted once");
    }
}

/// A friends' battle played by clicks on both sides until both windows show the
/// result, which they agree on; the actions played.
fn play_friends_to_the_end(
    host: &mut Harness<'static, Armada>,
    guest: &mut Harness<'static, Armada>,
) -> Vec<Did> {
    let over = |h: &Harness<'_, Armada>| {
        ["You win!", "You lose.", "A draw."]
            .iter()
            .any(|r| has(h, r))
    };
    let mut actions = Vec::new();
    for _ in 0..1_500 {
        both_until(host, guest, "a turn or the end", |h, g| {
            (over(h) && over(g)) || has(h, "Your turn") || has(g, "Your turn")
        });
        if over(host) && over(guest) {
            break;
        }
        let (me, other) = if has(host, "Your turn") {
            (&mut *host, &mut *guest)
        } else {
            (&mut *guest, &mut *host)
        };
        assert!(has(other, "Your friend's turn…"), "the other side waits");
        // Each side sees the clock of the action owed: its own, or the friend's.
        assert!(has(me, "Time for this action: "), "the mover's clock");
        assert!(has(other, "Your friend's time: "), "the friend's clock");
        actions.push(friend_action(me, other));
    }
    assert!(over(host) && over(guest), "the game ended");
    let headline = |h: &Harness<'_, Armada>| {
        ["You win!", "You lose.", "A draw."]
            .into_iter()
            .find(|r| has(h, r))
            .unwrap()
    };
    assert!(
        matches!(
            (headline(host), headline(guest)),
            ("You win!", "You lose.") | ("You lose.", "You win!") | ("A draw.", "A draw.")
        ),
        "the two windows agree"
    );
    actions
}

/// One of the three counts of a points fleet (large, medium, small) typed in: a
/// click on the field edits it, Enter takes the number.
fn spin(harness: &mut Harness<'static, Armada>, which: usize, count: u8) {
    harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .nth(which)
        .expect("the points fleet's counts")
        .click();
    harness.run();
    harness.event(egui::Event::Text(count.to_string()));
    harness.run();
    harness.key_press(egui::Key::Enter);
    harness.run();
}

/// The sizes of `side`'s fleet on the table: large, medium, small.
fn fleet_of(g: &Game, side: Side) -> [usize; 3] {
    let count = |size| g.ships(side).iter().filter(|s| s.size() == size).count();
    [
        count(armada::icehouse::Size::Large),
        count(armada::icehouse::Size::Medium),
        count(armada::icehouse::Size::Small),
    ]
}

/// A friends' points table: each side lays a fleet of its own worth 12, changed at
/// the table while laying (a fleet not worth 12 is shown in red and cannot be made
/// ready); both fleets are revealed as laid, the game is played to the end, and
/// both records verify honest.
#[test]
fn each_friend_lays_a_points_fleet_of_its_own_at_their_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = in_process_window(&dir.path().join("host"));
    let mut guest = in_process_window(&dir.path().join("guest"));
    open_and_join(&mut host, &mut guest, &["points fleets"]);
    // No squadrons in this setup: nothing to swap, nothing said about it.
    assert!(!has(&guest, "takes the other squadron"));
    choose_first_mover(&mut host, &mut guest, "I move first");
    for side in [&host, &guest] {
        assert!(has(side, "12 of 12 pips") && has(side, "L1 · large"));
    }
    // The guest trades its large ship for a medium and a small one.
    spin(&mut guest, 0, 0);
    assert!(has(&guest, "9 of 12 pips") && !has(&guest, "L1 · large"));
    click(&mut guest, "Place the rest automatically");
    assert!(
        guest
            .get_by_label("Ready — to battle")
            .accesskit_node()
            .is_disabled(),
        "a fleet not worth 12 is not laid"
    );
    spin(&mut guest, 1, 4);
    spin(&mut guest, 2, 4);
    assert!(has(&guest, "12 of 12 pips"));
    assert!(has(&guest, "M4 · medium") && has(&guest, "S4 · small"));
    shot(&mut guest, "icehouse_friend_points.png");
    lay_both(&mut host, &mut guest);
    let g = game(&host);
    assert_eq!(
        fleet_of(&g, Side::South),
        [0, 4, 4],
        "the guest's own fleet"
    );
    assert_eq!(fleet_of(&g, Side::North), [1, 3, 3], "the host's own fleet");
    let actions = play_friends_to_the_end(&mut host, &mut guest);
    assert!(actions.contains(&Did::Fired));
    both_honest_and_counted(dir.path());
}

/// In the advanced setup the side not moving first takes the other squadron: the
/// chooser is told which fleet each choice gives it, and gets it.
#[test]
fn the_chooser_is_told_which_squadron_each_choice_gives_in_the_advanced_setup() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = in_process_window(&dir.path().join("host"));
    let mut guest = in_process_window(&dir.path().join("guest"));
    open_and_join(&mut host, &mut guest, &["advanced"]);
    assert!(has(
        &guest,
        "moving first, you command 4 medium, 4 small; letting your friend move first, \
         you command 4 large."
    ));
    shot(&mut guest, "icehouse_choose_advanced.png");
    choose_first_mover(&mut host, &mut guest, "My friend moves first");
    assert!(has(&guest, "L4 · large") && !has(&guest, "M1 · medium"));
    assert!(has(&host, "M4 · medium") && !has(&host, "L1 · large"));
    lay_both(&mut host, &mut guest);
    let g = game(&host);
    assert_eq!(fleet_of(&g, Side::South), [0, 4, 4], "the host moves first");
    assert_eq!(fleet_of(&g, Side::North), [4, 0, 0], "the guest, swapped");
}

/// The home card's goal and squadron: chosen, used by the new table (the flagship
/// named in the fleet to lay), and remembered by the next window.
#[test]
fn the_goal_and_squadron_are_chosen_at_home_and_remembered() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Icehouse Armada");
    click(&mut harness, "capture the flagship");
    click(&mut harness, "light (4 medium, 4 small)");
    shot(&mut harness, "icehouse_home.png");
    click(&mut harness, "Hard");
    assert!(has(
        &harness,
        "Against the computer: Hard · goal: capture the flagship"
    ));
    assert!(
        has(&harness, "M1 · medium · flagship"),
        "the first ship is the flagship"
    );
    assert!(has(&harness, "S4 · small"), "the light squadron is laid");
    assert!(!has(&harness, "L1 · large"));
    drop(harness);
    let mut again = window(dir.path());
    click(&mut again, "Icehouse Armada");
    click(&mut again, "Easy");
    assert!(
        has(&again, "goal: capture the flagship"),
        "the goal is remembered"
    );
    assert!(has(&again, "M1 · medium · flagship"), "so is the squadron");
}

/// At a friend's Icehouse table: a draw offered and declined, one offer a turn,
/// then offered and accepted; Play again on both sides opens a second game whose
/// first mover the host chooses; a resignation ends it; both records verify honest
/// with two games, and both games count in the totals.
#[test]
fn friends_offer_draws_play_again_and_resign_at_an_icehouse_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = in_process_window(&dir.path().join("host"));
    let mut guest = in_process_window(&dir.path().join("guest"));
    seat_friends(&mut host, &mut guest);
    // The guest moves first: it offers a draw, the host declines.
    both_until(&mut guest, &mut host, "the guest's turn", |g, h| {
        has(g, "Your turn") && has(h, "Your friend's turn…")
    });
    click(&mut guest, "Offer a draw");
    both_until(&mut guest, &mut host, "the offer shown", |g, h| {
        has(g, "You offered a draw.") && has(h, "Your friend offers a draw.")
    });
    click(&mut host, "Decline");
    both_until(&mut guest, &mut host, "the offer declined", |g, _| {
        has(g, "Offer a draw")
    });
    let offer_enabled = |h: &Harness<'_, Armada>| {
        !h.get_by_label("Offer a draw")
            .accesskit_node()
            .is_disabled()
    };
    assert!(!offer_enabled(&guest), "one draw offer a turn");
    assert!(!offer_enabled(&host), "a draw is offered in one's own turn");
    click(&mut guest, "End turn (Space)");
    both_until(&mut host, &mut guest, "the host's turn", |h, _| {
        has(h, "Your turn")
            && !h
                .get_by_label("Offer a draw")
                .accesskit_node()
                .is_disabled()
    });
    click(&mut host, "Offer a draw");
    both_until(&mut host, &mut guest, "the host's offer", |_, g| {
        has(g, "Your friend offers a draw.")
    });
    click(&mut guest, "Accept");
    both_until(&mut host, &mut guest, "the draw", |h, g| {
        has(h, "A draw.") && has(g, "A draw.")
    });
    assert!(has(&host, "Both agreed to a draw."));
    // Play again: both ask; in the second game the host chooses the first mover.
    click(&mut host, "Play again");
    both_until(&mut host, &mut guest, "the wish shown", |_, g| {
        has(g, "Your friend asks for another game.")
    });
    click(&mut guest, "Play again");
    both_until(&mut host, &mut guest, "the second game's choice", |h, g| {
        has(h, "You choose who moves first") && has(g, "Your friend is choosing")
    });
    click(&mut host, "My friend moves first");
    both_until(&mut host, &mut guest, "both laying again", |h, g| {
        has(h, "Lay your fleet") && has(g, "Lay your fleet")
    });
    // Resign asks first: "No" plays on, "Yes" resigns.
    click(&mut host, "Resign");
    assert!(has(&host, "Resign this game?"));
    shot(&mut host, "icehouse_resign_asked.png");
    click(&mut host, "No, play on");
    assert!(!has(&host, "Resign this game?") && has(&host, "Lay your fleet"));
    click(&mut host, "Resign");
    click(&mut host, "Yes, resign");
    both_until(&mut host, &mut guest, "the resignation", |h, g| {
        has(h, "You lose.") && has(g, "You win!")
    });
    // A game resigned while laying offers nothing more to lay.
    for side in [&host, &guest] {
        assert!(!has(side, "Place the rest automatically") && !has(side, "Lay your fleet"));
    }
    assert!(has(&guest, "Your opponent resigned."));
    assert!(has(&host, "You resigned."));
    for side in ["host", "guest"] {
        let report = saved_report(&dir.path().join(side));
        assert_eq!(
            report.outcome,
            armada::fair::verify::Outcome::Honest,
            "{side}"
        );
        assert_eq!(report.icehouse.len(), 2, "{side}: two games");
        let totals = armada::store::Store::open(Some(&dir.path().join(side)))
            .unwrap()
            .totals()
            .unwrap();
        let (mut played, mut drawn) = (0, 0);
        for (_, tally) in totals.icehouse_kinds() {
            played += tally.played();
            drawn += tally.drawn;
        }
        assert_eq!(
            (played, drawn),
            (2, 1),
            "{side}: both games counted, one drawn"
        );
    }
}

/// A friend's Icehouse table goes on after the guest's window closes mid-game: the
/// host sees the link lost, the guest resumes from home, both show the same table
/// with the action played before, and the game goes on.
#[test]
fn an_icehouse_table_with_a_friend_resumes_after_the_window_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = in_process_window(&dir.path().join("host"));
    let mut guest = in_process_window(&dir.path().join("guest"));
    seat_friends(&mut host, &mut guest);
    both_until(&mut guest, &mut host, "the guest's turn", |g, _| {
        has(g, "Your turn")
    });
    friend_action(&mut guest, &mut host);
    both_until(
        &mut guest,
        &mut host,
        "the action on both tables",
        |g, h| g.state().icehouse_game() == h.state().icehouse_game(),
    );
    let before = guest.state().icehouse_game().cloned().unwrap();
    drop(guest);
    super::window::until(&mut host, "the lost link", |h| {
        has(h, "Connection lost — reconnecting…")
    });
    let mut guest = in_process_window(&dir.path().join("guest"));
    click(&mut guest, "Resume the game with your friend");
    both_until(&mut host, &mut guest, "the table again", |h, g| {
        has(h, "Connected directly")
            && has(g, "Connected directly")
            && g.state().icehouse_game().is_some()
    });
    assert_eq!(guest.state().icehouse_game(), Some(&before), "where it was");
    assert!(has(&guest, "Against your friend"));
    both_until(&mut host, &mut guest, "a turn due", |h, g| {
        has(h, "Your turn") || has(g, "Your turn")
    });
    let (me, other) = if has(&guest, "Your turn") {
        (&mut guest, &mut host)
    } else {
        (&mut host, &mut guest)
    };
    friend_action(me, other);
    both_until(
        &mut host,
        &mut guest,
        "the next action on both tables",
        |h, g| {
            g.state().icehouse_game() == h.state().icehouse_game()
                && g.state().icehouse_game() != Some(&before)
        },
    );
}

/// The Icehouse table speaks Ukrainian: the choice at home, the placement and the
/// battle's panel in the seed pages' words.
#[test]
fn the_icehouse_table_speaks_ukrainian() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = super::window::window_speaking(dir.path(), armada::ui::Lang::Uk);
    click(&mut harness, "Армада Айсхаус");
    click(&mut harness, "Легкий");
    assert!(has(&harness, "Розставте свій флот"));
    click(&mut harness, "Розставити решту автоматично");
    click(&mut harness, "Готово — до бою");
    assert!(step_until(&mut harness, 400, |h| has(h, "Ваш хід")));
    assert!(has(&harness, "Обидва флоти розставлено"));
    assert!(has(&harness, "Лишилося дій: 3"));
    let g = game(&harness);
    let ship = g.ships(me(&harness)).iter().find(|s| s.afloat).unwrap();
    click_at(&mut harness, centre(&ship.footprint()));
    let d = sub(ship.pose.bow, ship.pose.stern);
    hover(
        &mut harness,
        Point::new(ship.pose.bow.x + d.x, ship.pose.bow.y + d.y),
    );
    shot(&mut harness, "icehouse_uk.png");
    assert!(has(&harness, "Привид іде за вказівником"));
}

/// A game against the computer is saved after every action and continued from home
/// where it was, in the middle of the person's turn.
#[test]
fn an_icehouse_game_is_continued_from_home_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    open_and_place(&mut harness, "Medium");
    assert!(step_until(&mut harness, 400, |h| has(h, "Your turn")));
    one_action(&mut harness, &mut alone);
    let before = game(&harness);
    drop(harness);
    let mut again = window(dir.path());
    click(&mut again, "Continue the game of Icehouse Armada");
    assert_eq!(game(&again), before, "the game as it was left");
    assert!(has(&again, "Against the computer: Medium"));
    if before.to_move() == me(&again) && before.ending().is_none() {
        assert_eq!(actions_left(&again), Some(before.actions_left()));
    }
}

/// The points setup chosen at home: one's own fleet worth 12 (1 large, 3 medium,
/// 3 small until changed) is the fleet to lay, against a computer's fleet of 12.
#[test]
fn a_points_fleet_of_ones_own_is_laid_against_the_computer() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Icehouse Armada");
    click(&mut harness, "points fleets");
    assert!(has(&harness, "12 of 12 pips"));
    click(&mut harness, "Easy");
    for ship in ["L1 · large", "M3 · medium", "S3 · small"] {
        assert!(has(&harness, ship), "{ship}");
    }
    assert!(!has(&harness, "L2 · large") && !has(&harness, "M4 · medium"));
    click(&mut harness, "Place the rest automatically");
    click(&mut harness, "Ready — to battle");
    assert!(step_until(&mut harness, 400, |h| has(h, "Your turn")));
    let g = game(&harness);
    let side = me(&harness);
    let pips = |s: Side| {
        g.ships(s)
            .iter()
            .map(|s| u32::from(s.size().pips()))
            .sum::<u32>()
    };
    assert_eq!((pips(side), pips(side.other())), (12, 12));
}

/// A move of several steps by clicks: each step laid from the last one's bow, Escape
/// undoing the steps not yet sailed, Enter sailing them as one move.
#[test]
fn a_move_of_several_steps_is_laid_by_clicks_undone_by_escape_and_sailed_by_enter() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Icehouse Armada");
    click(&mut harness, "light (4 medium, 4 small)");
    click(&mut harness, "Easy");
    click(&mut harness, "Place the rest automatically");
    click(&mut harness, "Ready — to battle");
    assert!(step_until(&mut harness, 400, |h| has(h, "Your turn")));
    let g = game(&harness);
    let side = me(&harness);
    let forward = if side == Side::South {
        std::f64::consts::FRAC_PI_2
    } else {
        -std::f64::consts::FRAC_PI_2
    };
    // A small ship with two legal steps ahead.
    let (i, ship, steps) = g
        .ships(side)
        .iter()
        .enumerate()
        .filter(|(_, s)| s.size() == armada::icehouse::Size::Small)
        .find_map(|(i, s)| {
            let (one, _) = nearest_step(&g, i as u8, s.pose, forward).ok()?;
            let (two, _) = nearest_step(&g, i as u8, one, forward).ok()?;
            Some((i, *s, [one, two]))
        })
        .expect("a small ship that can sail two steps ahead");
    let lay = |harness: &mut Harness<'static, Armada>, to: Pose| click_at(harness, to.bow);
    click_at(&mut harness, centre(&ship.footprint()));
    lay(&mut harness, steps[0]);
    assert!(has(&harness, "Sail (1 step)"), "the first step is laid");
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert!(
        !has(&harness, "Sail ("),
        "Escape undoes the steps not sailed"
    );
    assert_eq!(game(&harness), g, "nothing was played");
    lay(&mut harness, steps[0]);
    lay(&mut harness, steps[1]);
    assert!(
        has(&harness, "Sail (2 steps)"),
        "the second step follows from the new bow"
    );
    harness.key_press(egui::Key::Enter);
    harness.run();
    assert!(has(
        &harness,
        &format!("You moved {} (2 steps).", ship.name)
    ));
    let sailed = game(&harness).ships(side)[i].pose;
    assert_eq!(
        sailed, steps[1],
        "the ship lies where its second step put it"
    );
    assert_eq!(actions_left(&harness), Some(2), "one action of three spent");
}

/// A position, reached by legal actions from random placements, where the person
/// to move has ship `ship` whose shadow (at the pointer on `target`'s middle) covers
/// enemy `target` with no clear line: the saved game, the ship and the target.
fn blocked_position() -> (armada::store::IcehouseGame, usize, usize) {
    use armada::icehouse::{
        Fleet, Goal, Level, choose, offset_toward, random_placement, shot_from,
    };
    use rand::SeedableRng as _;
    for seed in 0..400u64 {
        let rng = &mut rand::rngs::ChaCha8Rng::seed_from_u64(seed);
        let fleets = [Fleet::HEAVY, Fleet::LIGHT];
        let computer = random_placement(Side::North, fleets[1], Goal::SinkAll, rng);
        let mut saved = armada::store::IcehouseGame::new(
            Level::Easy,
            Goal::SinkAll,
            Side::South,
            fleets,
            computer,
        );
        saved.placements[0] = random_placement(Side::South, fleets[0], Goal::SinkAll, rng);
        let mut game = saved.game().unwrap().unwrap();
        for _ in 0..300 {
            if game.ending().is_some() {
                break;
            }
            if game.to_move() == Side::South {
                for (i, ship) in game.ships(Side::South).iter().enumerate() {
                    if !ship.afloat || game.shots_fired(i as u8) >= ship.size().pips() {
                        continue;
                    }
                    for (t, enemy) in game.ships(Side::North).iter().enumerate() {
                        if !enemy.afloat {
                            continue;
                        }
                        let c = centre(&enemy.footprint());
                        let at = (c.x as f64, c.y as f64);
                        // The side the window picks: the one whose corner is nearer.
                        let (port, starboard) = ship.pose.corners(ship.size());
                        let d = |p: Point| (p.x as f64 - at.0).hypot(p.y as f64 - at.1);
                        let side = if d(port) <= d(starboard) {
                            armada::icehouse::Broadside::Port
                        } else {
                            armada::icehouse::Broadside::Starboard
                        };
                        let o = offset_toward(ship.pose, ship.size(), side, at);
                        // In the shadow, and no line found, a micrometre either way too.
                        let blocked = (o - 1..=o + 1).all(|o| {
                            let field = ship.pose.field(ship.size(), side, o).triangle();
                            field.touches(&enemy.footprint())
                                && shot_from(&game, i as u8, side, o, t as u8).is_none()
                        });
                        if blocked && !enemy.footprint().contains(ship.pose.bow) {
                            return (saved, i, t);
                        }
                    }
                }
            }
            let action = choose(&game, Level::Medium, rng);
            game.play(action).unwrap();
            saved.actions.push(action);
        }
    }
    panic!("no blocked line in 400 seeded games");
}

/// On screen: a target inside the shadow whose every line is blocked is not lit,
/// not listed, and a click on it says why, firing nothing.
#[test]
fn a_target_in_the_shadow_with_a_blocked_line_is_not_lit_on_screen() {
    let (saved, ship, target) = blocked_position();
    let dir = tempfile::tempdir().unwrap();
    armada::store::Store::open(Some(dir.path()))
        .unwrap()
        .save_icehouse(&saved)
        .unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Continue the game of Icehouse Armada");
    assert!(has(&harness, "Your turn"));
    let g = game(&harness);
    let mine = g.ships(Side::South)[ship];
    let enemy = g.ships(Side::North)[target];
    click_at(&mut harness, centre(&mine.footprint()));
    harness.key_press(egui::Key::F);
    harness.run();
    let at = centre(&enemy.footprint());
    hover(&mut harness, at);
    let name = enemy.name.to_string();
    let listed = harness
        .query_all_by_label_contains("In the line of fire: ")
        .filter_map(|n| n.accesskit_node().value())
        .any(|l| {
            l.split(": ")
                .nth(1)
                .is_some_and(|s| s.split(", ").any(|n| n == name))
        });
    assert!(!listed, "{name} is not lit");
    click_at(&mut harness, at);
    assert!(has(
        &harness,
        &format!("{name} is not in the shadow, or its line of fire is blocked")
    ));
    assert_eq!(game(&harness), g, "nothing was fired");
}

/// A laid ship is turned by dragging its bow: it stays where it lay and heads for
/// where the bow is let go.
#[test]
fn a_laid_ship_is_turned_by_dragging_its_bow() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = window(dir.path());
    click(&mut harness, "Icehouse Armada");
    click(&mut harness, "Easy");
    let home_y = match me(&harness) {
        Side::South => 80_000,
        Side::North => 520_000,
    };
    click_at(&mut harness, Point::new(400_000, home_y));
    harness.key_press(egui::Key::Escape);
    harness.run();
    let before = harness.state().icehouse_laid()[0].expect("L1 is laid");
    let middle = centre(&before.footprint(armada::icehouse::Size::Large));
    // From the bow to a point east of the middle: the ship turns to head east.
    let (from, to) = (
        screen(&harness, before.bow),
        screen(&harness, Point::new(middle.x + 60_000, middle.y)),
    );
    harness.hover_at(from);
    harness.run();
    harness.drag_at(from);
    harness.run();
    for k in 1..=6 {
        harness.hover_at(from + (to - from) * (k as f32 / 6.0));
        harness.run();
    }
    harness.drop_at(to);
    harness.run();
    let after = harness.state().icehouse_laid()[0].expect("L1 is laid again");
    let turned = centre(&after.footprint(armada::icehouse::Size::Large));
    assert!(
        (turned.x - middle.x).abs() <= 1_000 && (turned.y - middle.y).abs() <= 1_000,
        "it turned about its middle: {middle:?} → {turned:?}"
    );
    assert!(
        after.bow.x > after.stern.x + 40_000,
        "it heads east: {after:?}"
    );
    assert!((after.bow.y - after.stern.y).abs() < 5_000, "{after:?}");
}
