//! Armada's integration tests: one binary, one module per topic.

mod support;

mod ai;
mod chaos;
mod cheats;
mod cli;
mod coords;
mod deduce;
mod fuzz;
mod hostile;
mod liar;
mod orders;
mod net;
mod pair;
mod placement;
mod properties;
mod sampler;
mod scenarios;
mod session;
mod uniformity;
mod vectors;
mod window;
