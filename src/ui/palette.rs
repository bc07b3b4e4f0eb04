//! The window's colours for water, ships and marks, named once so that every game's board and the rules' drawings read alike.

use eframe::egui::Color32;

// Deep water where nothing is known, the player's own sea, and the shallower
// water of a cell known to be empty: the three read apart at a glance.
pub const DEEP: Color32 = Color32::from_rgb(14, 38, 68);
pub const DEEP_WAVE: Color32 = Color32::from_rgb(38, 78, 120);
pub const OWN_SEA: Color32 = Color32::from_rgb(26, 70, 108);
pub const KNOWN: Color32 = Color32::from_rgb(52, 112, 146);
/// The grid between cells.
pub const SEA_LINE: Color32 = Color32::from_rgb(70, 112, 150);
pub const SPLASH: Color32 = Color32::from_rgb(215, 235, 250);

/// A sea-battle hull in the rules' drawings.
pub const SHIP: Color32 = Color32::from_rgb(150, 160, 170);
/// Where a weapon aims.
pub const AIM: Color32 = Color32::from_rgb(255, 220, 80);
/// What the radar found: a deck, and water.
pub const RADAR_DECK: Color32 = Color32::from_rgb(120, 255, 140);
pub const RADAR_WATER: Color32 = Color32::from_rgb(120, 200, 255);

/// Archimedes' two fleets: the player's, and the other side's.
pub const MINE: Color32 = Color32::from_rgb(0xc8, 0xd3, 0xdc);
pub const THEIRS: Color32 = Color32::from_rgb(0xd9, 0x9a, 0x3c);
/// A cell a picked ship may reach.
pub const REACH: Color32 = Color32::from_rgb(0x4c, 0xd9, 0x64);
/// The lines of fire that sink a ship.
pub const FIRE: Color32 = Color32::from_rgb(0xe8, 0x3a, 0x2e);

/// The fill of a screen's one primary button (Start, Ready, Play again).
pub const PRIMARY: Color32 = Color32::from_rgb(28, 96, 52);
