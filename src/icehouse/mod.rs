//! Icehouse Armada, the third game: pyramids lying on a table with no board, moved
//! by whole-length steps that pivot on the bow and firing broadsides into a large
//! pyramid's shadow (`docs/ICEHOUSE.md`) — its exact rules engine and the helpers that
//! turn a pointer or a heading into poses and lines of fire the rules accept.
//!
//! Architecture invariant: as pure as the other engines — no IO, no clock, no
//! randomness of its own, no crypto, network or UI. Every rule is decided with
//! integers (µm; i64, i128 for the products that need it): no float, trigonometry or
//! square root reaches a rule. Floats live only in `propose`, whose every answer is
//! checked by the rules before it is used. An illegal action is a typed refusal
//! that changes nothing.

mod ai;
mod fleet;
mod game;
mod geometry;
mod picture;
mod propose;
mod typed;

pub use ai::{Level, choose};
pub use fleet::{Fleet, FleetError, MAX_OF_A_SIZE, POINTS, Setup, Squadron, check_points};
pub use game::{
    ACTIONS_PER_TURN, Action, BREAKTHROUGH_TURNS, EndReason, Ending, Game, Goal, HOME_DEPTH, Hit,
    Placed, PlacementError, Played, QUIET_TURNS, Refusal, Ship, ShipName, Shot, Side, Step, Steps,
    check_placement, through,
};
pub use geometry::{
    Broadside, Field, POSE_SLACK, Point, Pose, Size, TABLE_H, TABLE_W, Triangle, round_div,
};
pub use picture::{describe, render};
pub use propose::{
    complete_placement, find_shot, heading, nearest_step, offset_toward, pose_at, random_placement,
    shot_from, step_at, step_toward,
};
pub use typed::{TypedError, parse, parse_placement};
